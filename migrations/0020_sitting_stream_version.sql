-- The stream version asm_sittings reflects (packages/assessment/src/projections/sittingsProjection.ts): the
-- highest version of the sitting's stream among the events the row was built from. The answer command decides
-- on the row and appends expecting this version, so a row behind its stream makes the append conflict and the
-- command folds the stream instead (docs/assessment-sittings.md, "The answer path"). Null on rows written
-- before this column: the command folds the stream for those.
alter table asm_sittings add column stream_version bigint;
