export { decisionsCommands } from './commandContext';
export { CREDITING_DECISION_TYPES, masteryInputOf } from './commands/masteryInputs';
export { alertIdOf, trendDecisionIdOf } from './commands/monitoringStep';
export { profileCatalogOf, profileDecisionIdOf, recommendationIdOf } from './commands/profileStep';
export { INLINE_RECOMPUTE_LIMIT } from './commands/recomputeAfterEvidence';
export { decisionIdOf, type RecomputeDeps, recomputeSkillStatus } from './commands/recomputeSkillStatus';
export { decisionsContext } from './context';
export { decideMonitoring, trendMasteryOf } from './engine/decideMonitoring';
export {
  decideProfile,
  decideRecommendation,
  domainMasteryOf,
  domainStatusesOf,
  type ProfileCatalog,
} from './engine/decideProfiles';
export { decideSkillStatuses } from './engine/decideSkillStatuses';
export {
  ALERT_KINDS,
  ALERT_STATUSES,
  type AlertKind,
  MONITORING_HOLD_REASONS,
  type MonitoringHoldReason,
  TREND_TOKENS,
  type TrendToken,
} from './engine/monitoringTypes';
export {
  ANCHOR_GROUPS,
  type AnchorGroup,
  DATA_INCOMPLETE,
  NEXT_DATA_ACTIONS,
  type NextDataAction,
  PROFILE_CODES,
  PROFILE_NAMES,
  type ProfileCode,
  type ProfileName,
  RECOMMENDATION_OUTCOMES,
  type RecommendationOutcome,
  SCAFFOLD_TIERS,
  type ScaffoldTier,
} from './engine/profileTypes';
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
export {
  MONITORING_ALERT_CLOSED,
  MONITORING_ALERT_ESCALATED,
  MONITORING_EVENT_TYPES,
  type MonitoringAlertChanged,
  REGRESSION_ALERT_RAISED,
  TREND_ALERT_RAISED,
  TREND_DECIDED,
  type TrendDecided,
} from './events/monitoringEvents';
export {
  BUNDLE_BLOCKED,
  BUNDLE_RECOMMENDED,
  type BundleRecommendationDecided,
  PROFILE_EVENT_TYPES,
  PROFILE_RESOLVED,
  type ProfileResolved,
} from './events/profileEvents';
export {
  DECISIONS_PROJECTIONS,
  skillStatusProjection,
  skillStatusReactor,
  trainingSeedsProjection,
} from './projections';
export { monitoringProjection } from './projections/monitoringProjection';
export { profileProjection } from './projections/profileProjection';
export { EVIDENCE_SETTLING_TYPES, touchedStudents } from './projections/skillStatusReactor';
export { latestSkillDecision, type SkillDecisionTrail } from './queries/latestSkillDecision';
export { type LatestSkillStatus, latestSkillStatuses } from './queries/latestSkillStatuses';
export { monitoringOf, openAcuteRegressionsOf } from './queries/monitoringOf';
export {
  isDataIncomplete,
  profileOf,
  profilesOfClass,
  profileWindowsOf,
  recommendationOf,
  recommendationsOfClass,
} from './queries/profileOf';
export { skillStatusOf } from './queries/skillStatusOf';
export { type TrainingLevelSeed, trainingLevelSeedsOf } from './queries/trainingLevelSeedsOf';
export { decisionRewardsReaction } from './reactions/decisionRewardsReaction';
export { profileNotifier, wantsProfileSwap, wantsSkillAlert } from './reactions/profileNotifier';
export {
  canonical,
  type DecisionReplayReport,
  driftOf,
  type KeyReplay,
  REPLAY_FIELDS,
  type ReplayField,
  replayDecisions,
} from './replay';
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
export { MonitoringResponse } from './schemas/monitoringSchemas';
export {
  ProfileQuery,
  ProfileResponse,
  type ProfileView,
  RecommendationResponse,
  type RecommendationView,
} from './schemas/profileSchemas';

/** A skill-status read model row that is a safe stop: downstream consumers (profiles, clusters, mastery) halt. */
export const isDoNotDecideYet = (row: { doNotDecideYet: boolean }) => row.doNotDecideYet;
