import type { ScreeningWindow } from '@qiraa/assessment';
import type { MasteryCredit } from './engine/masteryRules';
import type { SkillStatusDecision } from './engine/skillStatusTypes';
import type { StatusToken } from './rules/ruleSet';

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

/** Every event type this context writes (later: ProfileResolved, TrendDecided, BundleRecommended, …). */
export const DECISION_EVENT_TYPES = [SKILL_STATUS_DECIDED, BAND_PROGRESSION_DECIDED] as const;

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

export const streams = {
  decision: (studentId: number) => `decision-${studentId}`,
};
