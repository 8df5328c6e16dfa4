export { decisionsCommands } from './commandContext';
export { CREDITING_DECISION_TYPES, masteryInputOf } from './commands/masteryInputs';
export { decisionIdOf, type RecomputeDeps, recomputeSkillStatus } from './commands/recomputeSkillStatus';
export { decisionsContext } from './context';
export { decideSkillStatuses } from './engine/decideSkillStatuses';
export {
  type EvidenceSummary,
  HOLD_REASONS,
  type HoldReason,
  type SkillStatusDecision,
  type SkillStatusKey,
} from './engine/skillStatusTypes';
export { decideTrainingSeeds, SEED_HOLD_REASONS, type SeedHoldReason, type SeedOutcome } from './engine/trainingSeeds';
export {
  DECISION_EVENT_TYPES,
  type DecisionEvent,
  decisionEvents,
  SKILL_STATUS_DECIDED,
  type SkillStatusDecided,
  streams,
  TRAINING_LEVEL_SEED_RETRACTED,
  TRAINING_LEVEL_SEEDED,
  type TrainingLevelSeeded,
  type TrainingLevelSeedRetracted,
} from './events';
export { INLINE_RECOMPUTE_LIMIT } from './inline/recomputeAfterEvidence';
export * from './monitoring';
export * from './profiles';
export {
  DECISIONS_PROJECTIONS,
  skillStatusProjection,
  skillStatusReactor,
  trainingSeedsProjection,
} from './projections';
export { EVIDENCE_SETTLING_TYPES, touchedStudents } from './projections/skillStatusReactor';
export { type LatestSkillStatus, latestSkillStatuses } from './queries/latestSkillStatuses';
export { skillStatusOf } from './queries/skillStatusOf';
export { type TrainingLevelSeed, trainingLevelSeedsOf } from './queries/trainingLevelSeedsOf';
export {
  canonical,
  type DecisionReplayReport,
  driftOf,
  type KeyReplay,
  REPLAY_FIELDS,
  type ReplayField,
  replayDecisions,
} from './replay';
export { decisionRewardsReaction } from './rewards/decisionRewardsReaction';
export {
  CURRENT_RULE_SET,
  RULE_SETS,
  type RuleSet,
  RuleSetError,
  rankOf,
  ruleSetOf,
  ruleSetVersion,
  STATUS_TOKENS,
  type StatusToken,
} from './rules/ruleSet';
export {
  EvidenceSummarySchema,
  SkillStatusQuery,
  SkillStatusResponse,
  SkillStatusRowSchema,
} from './schemas';

/** A skill-status read model row that is a safe stop: downstream consumers (profiles, clusters, mastery) halt. */
export const isDoNotDecideYet = (row: { doNotDecideYet: boolean }) => row.doNotDecideYet;
