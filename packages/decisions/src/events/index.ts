import type { ScreeningWindow } from '@qiraa/assessment';
import { eventsAs, type RecordedEvent } from '@qiraa/eventstore';
import type { MasteryCredit } from '../engine/masteryRules';
import type { SkillStatusDecision } from '../engine/skillStatusTypes';
import type { StatusToken } from '../rules/ruleSet';
import {
  type MONITORING_ALERT_CLOSED,
  type MONITORING_ALERT_ESCALATED,
  MONITORING_EVENT_TYPES,
  type MonitoringAlertChanged,
  type REGRESSION_ALERT_RAISED,
  type TREND_ALERT_RAISED,
  type TREND_DECIDED,
  type TrendDecided,
} from './monitoringEvents';
import type {
  BUNDLE_BLOCKED,
  BUNDLE_RECOMMENDED,
  BundleRecommendationDecided,
  PROFILE_RESOLVED,
  ProfileResolved,
} from './profileEvents';

/**
 * The decisions context's events, all on the student's stream `decision-<studentId>`. A decision is appended
 * once per distinct evidence state: its id is derived from the key, the rule-set version and the evidence and
 * void ids it used, so recomputing unchanged evidence appends nothing and any change appends a new decision
 * that supersedes the previous one of the same key.
 */
export const SKILL_STATUS_DECIDED = 'SkillStatusDecided';

/**
 * A read's band rose over the previous banded read of the same cell (rule MER-03): the band decision whose id
 * is the `band_progression` mastery event's engine event id. One per read, ever (the id is the read's).
 */
export const BAND_PROGRESSION_DECIDED = 'BandProgressionDecided';

/**
 * A skill's starting training level from the screen (rule TLS-01), per academic year, window and skill; the
 * training context starts the skill's level from it (`startedFrom: screen`). A newer seed of the same key
 * supersedes it (`supersedesSeedId`); `TrainingLevelSeedRetracted` takes it back (docs/decisions-training-seeds.md).
 */
export const TRAINING_LEVEL_SEEDED = 'TrainingLevelSeeded';

/**
 * The seed of a key no longer holds (TLS-08: a sub-skill the measure covers is now held; TLS-09: no complete
 * measure is left, e.g. its sitting was voided): the key has no seed until a new `TrainingLevelSeeded`.
 */
export const TRAINING_LEVEL_SEED_RETRACTED = 'TrainingLevelSeedRetracted';

/** Every event type this context writes (later: ProfileResolved, TrendDecided, BundleRecommended, …). */
export const DECISION_EVENT_TYPES = [
  SKILL_STATUS_DECIDED,
  BAND_PROGRESSION_DECIDED,
  TRAINING_LEVEL_SEEDED,
  TRAINING_LEVEL_SEED_RETRACTED,
  ...MONITORING_EVENT_TYPES,
] as const;

export interface SkillStatusDecided extends SkillStatusDecision {
  /** The event's own id (deterministic): what a mastery event will carry as its engine event id. */
  decisionId: string;
  studentId: number;
  organizationId: string | null;
  /** The decision of the same key this one replaces (null for the first). */
  supersedesDecisionId: string | null;
  decidedAt: string;
  /**
   * The mastery rule this decision fired (MER-01 between windows, MER-02 within one) and the step it took;
   * null when none did (a safe stop, no rise, the first status). Absent on decisions made before mastery
   * events existed. The mastery event it earned carries `decisionId` as its engine event id.
   */
  mastery?: MasteryCredit | null;
}

export interface BandProgressionDecided {
  /** Deterministic from the student and the read: what the mastery event carries as its engine event id. */
  bandDecisionId: string;
  studentId: number;
  organizationId: string | null;
  ruleId: string;
  sourceKind: 'band_progression';
  ruleSetVersion: string;
  cell: string;
  academicYear: string;
  window: ScreeningWindow;
  readAttemptId: string;
  previousAttemptId: string;
  from: StatusToken;
  to: StatusToken;
  /** When the read ended. */
  readAt: string;
  decidedAt: string;
}

export interface TrainingLevelSeeded {
  /** The event's own id: uuidv5 of the key, rule-set version, measure, level, evidence and the key's previous event. */
  seedId: string;
  studentId: number;
  organizationId: string | null;
  academicYear: string;
  window: ScreeningWindow;
  skillId: string;
  /** The measure whose result seeded the level (a digital screening measure of the skill). */
  measureCode: string;
  /** The training level the skill's training starts at (catalog `training_level`). */
  level: 1 | 2 | 3 | 4;
  source: 'screen';
  /** The measure's own level (cut version pinned by the sitting) the level was mapped from. */
  measureLevel: 1 | 2 | 3 | 4;
  /** The sitting (session) whose measure result seeded it. */
  sessionId: string;
  cutVersion: string | null;
  provisional: boolean;
  ruleId: string;
  ruleSetVersion: string;
  /** The sitting's start, the measure's answers and the sitting's end. */
  evidenceEventIds: string[];
  /** The skill-status decisions of the covered sub-skills the rule checked (none held). */
  statusDecisionIds: string[];
  /** The seed of the same key it replaces (null for the first, or after a retraction). */
  supersedesSeedId: string | null;
  decidedAt: string;
}

export interface TrainingLevelSeedRetracted {
  /** The event's own id: uuidv5 of the seed it retracts (a seed is retracted at most once). */
  retractionId: string;
  retractedSeedId: string;
  studentId: number;
  organizationId: string | null;
  academicYear: string;
  window: ScreeningWindow;
  skillId: string;
  measureCode: string | null;
  /** TLS-08 (`skill_held`) or TLS-09 (`no_complete_measure`). */
  ruleId: string;
  reason: 'skill_held' | 'no_complete_measure';
  ruleSetVersion: string;
  /** What the rule looked at: the measure's events (TLS-08), the window's sittings of the skill and voids (TLS-09). */
  evidenceEventIds: string[];
  statusDecisionIds: string[];
  decidedAt: string;
}

/**
 * Every event of `decision-<studentId>`, typed: `type` discriminates `data` (docs/architecture.md, "Typed
 * events"). Add an event here with its constant and its data interface.
 */
export type DecisionEvent =
  | { type: typeof SKILL_STATUS_DECIDED; data: SkillStatusDecided }
  | { type: typeof BAND_PROGRESSION_DECIDED; data: BandProgressionDecided }
  | { type: typeof TRAINING_LEVEL_SEEDED; data: TrainingLevelSeeded }
  | { type: typeof TRAINING_LEVEL_SEED_RETRACTED; data: TrainingLevelSeedRetracted }
  | { type: typeof TREND_DECIDED; data: TrendDecided }
  | { type: typeof REGRESSION_ALERT_RAISED; data: MonitoringAlertChanged }
  | { type: typeof TREND_ALERT_RAISED; data: MonitoringAlertChanged }
  | { type: typeof MONITORING_ALERT_ESCALATED; data: MonitoringAlertChanged }
  | { type: typeof MONITORING_ALERT_CLOSED; data: MonitoringAlertChanged }
  | { type: typeof PROFILE_RESOLVED; data: ProfileResolved }
  | { type: typeof BUNDLE_RECOMMENDED; data: BundleRecommendationDecided }
  | { type: typeof BUNDLE_BLOCKED; data: BundleRecommendationDecided };

/** Events read from the store as this context's (the one typed boundary: `eventsAs`). */
export const decisionEvents = (events: readonly RecordedEvent[]) => eventsAs<DecisionEvent>(events);

export const streams = {
  decision: (studentId: number) => `decision-${studentId}`,
};
