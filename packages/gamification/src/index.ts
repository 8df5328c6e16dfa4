export { HALT_SIGNALS, MASTERY_EVENT_SOURCE_KINDS, type MasteryEventSourceKind } from './codes';
export {
  type GamificationDeps,
  MAX_MASTERY_BATCH,
  type MasteryEventInput,
  masteryEventIdFor,
  type RecordOptions,
  type RecordResult,
  recordMasteryEvent,
  recordMasteryEvents,
} from './commands/recordMasteryEvent';
export {
  type ReversalInput,
  type ReversalResult,
  reversalEventIdFor,
  reverseMasteryEvents,
} from './commands/reverseMasteryEvents';
export { gamificationContext } from './context';
export * from './events';
export { gamificationLedgerProjection } from './projections/ledgerProjection';
export { celebrationIdOf } from './queries/celebrations';
export { holidayOrganizationsQuery } from './queries/holidayOrganizations';
export { activeBadgeCodesOf, xpBalanceOf } from './queries/ledgerValues';
export { gamificationProfile } from './queries/profile';
export * from './replay';
export { CURRENT_RULE_SET, ruleSetVersion } from './rules';
export * from './rules/overrideCodes';
export { IngestBody } from './schemas';
