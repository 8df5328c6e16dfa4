-- Read-band cut tables of oral reading and word-list reads (packages/assessment/src/oral/readCuts.ts,
-- docs/assessment-oral.md). Ordinary table, versioned data: every banded read names the version and scope it
-- used, and a version is never edited once reads point at it (a new version is a new set of rows).
-- organization_id null: the global default; an organization's own rows of a cell replace the global ones.

create table asm_read_cuts (
  version         text not null check (version ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'),
  organization_id text references organizations (id),
  -- The teacher-page cell the cut bands: oral reading of a passage, or a word list of either skill.
  cell            text not null check (cell in ('oral_text', 'oral_familiar_words', 'oral_pseudowords')),
  grade           smallint not null check (grade between 1 and 4),
  evidence_window text not null check (evidence_window in ('BOY', 'MOY', 'EOY')),
  -- [{ "band": "developing" | "on_track" | "strong", "min": <percent or words correct per minute> }]; [] none.
  accuracy_cuts   jsonb not null default '[]' check (jsonb_typeof(accuracy_cuts) = 'array'),
  rate_cuts       jsonb not null default '[]' check (jsonb_typeof(rate_cuts) = 'array'),
  -- A rate norm exists but is not applied in this window (e.g. grade 1 BOY): the read is banded on accuracy.
  rate_withheld   boolean not null default false,
  -- Cuts still being normed: every read banded with them is provisional.
  provisional     boolean not null default true,
  published_at    timestamptz not null default now(),
  unique nulls not distinct (organization_id, version, cell, grade, evidence_window)
);
create index asm_read_cuts_lookup_idx on asm_read_cuts (cell, grade, evidence_window, organization_id, published_at desc);

-- Global default `global-2026.1`, provisional. Accuracy: developing 80, on_track 90, strong 97 percent for
-- passages; 70 / 85 / 95 for word lists. Rate (words correct per minute): on_track is the benchmark below;
-- developing is 60 percent of it and strong 140 percent (rounded). The rate cut is withheld in grade 1 BOY.
insert into asm_read_cuts (version, organization_id, cell, grade, evidence_window, accuracy_cuts, rate_cuts,
                           rate_withheld, provisional)
select 'global-2026.1', null, d.cell, d.grade, d.evidence_window,
       case when d.cell = 'oral_text'
            then '[{"band":"developing","min":80},{"band":"on_track","min":90},{"band":"strong","min":97}]'::jsonb
            else '[{"band":"developing","min":70},{"band":"on_track","min":85},{"band":"strong","min":95}]'::jsonb end,
       jsonb_build_array(
         jsonb_build_object('band', 'developing', 'min', round(d.on_track * 0.6)),
         jsonb_build_object('band', 'on_track', 'min', d.on_track),
         jsonb_build_object('band', 'strong', 'min', round(d.on_track * 1.4))),
       d.grade = 1 and d.evidence_window = 'BOY',
       true
from (values
  ('oral_text', 1, 'BOY', 10), ('oral_text', 1, 'MOY', 15), ('oral_text', 1, 'EOY', 25),
  ('oral_text', 2, 'BOY', 25), ('oral_text', 2, 'MOY', 35), ('oral_text', 2, 'EOY', 45),
  ('oral_text', 3, 'BOY', 40), ('oral_text', 3, 'MOY', 50), ('oral_text', 3, 'EOY', 60),
  ('oral_text', 4, 'BOY', 55), ('oral_text', 4, 'MOY', 65), ('oral_text', 4, 'EOY', 75),
  ('oral_familiar_words', 1, 'BOY', 10), ('oral_familiar_words', 1, 'MOY', 15), ('oral_familiar_words', 1, 'EOY', 25),
  ('oral_familiar_words', 2, 'BOY', 20), ('oral_familiar_words', 2, 'MOY', 30), ('oral_familiar_words', 2, 'EOY', 40),
  ('oral_familiar_words', 3, 'BOY', 35), ('oral_familiar_words', 3, 'MOY', 45), ('oral_familiar_words', 3, 'EOY', 55),
  ('oral_familiar_words', 4, 'BOY', 45), ('oral_familiar_words', 4, 'MOY', 55), ('oral_familiar_words', 4, 'EOY', 65),
  ('oral_pseudowords', 1, 'BOY', 5), ('oral_pseudowords', 1, 'MOY', 10), ('oral_pseudowords', 1, 'EOY', 15),
  ('oral_pseudowords', 2, 'BOY', 12), ('oral_pseudowords', 2, 'MOY', 18), ('oral_pseudowords', 2, 'EOY', 24),
  ('oral_pseudowords', 3, 'BOY', 20), ('oral_pseudowords', 3, 'MOY', 25), ('oral_pseudowords', 3, 'EOY', 30),
  ('oral_pseudowords', 4, 'BOY', 25), ('oral_pseudowords', 4, 'MOY', 30), ('oral_pseudowords', 4, 'EOY', 35)
) as d(cell, grade, evidence_window, on_track);
