import type { SkillStatusDecision } from './engine/skillStatusTypes';

/**
 * The decisions context's events, all on the student's stream `decision-<studentId>`. A decision is appended
 * once per distinct evidence state: its id is derived from the key, the rule-set version and the evidence and
 * void ids it used, so recomputing unchanged evidence appends nothing and any change appends a new decision
 * that supersedes the previous one of the same key.
 */
export const SKILL_STATUS_DECIDED = 'SkillStatusDecided';

/** Every event type this context writes (later: ProfileResolved, TrendDecided, BundleRecommended, …). */
export const DECISION_EVENT_TYPES = [SKILL_STATUS_DECIDED] as const;

export interface SkillStatusDecided extends SkillStatusDecision {
  /** The event's own id (deterministic): what a mastery event will carry as its engine event id. */
  decisionId: string;
  studentId: number;
  organizationId: string | null;
  /** The decision of the same key this one replaces (null for the first). */
  supersedesDecisionId: string | null;
  decidedAt: string;
}

export const streams = {
  decision: (studentId: number) => `decision-${studentId}`,
};
