import type { ScreeningWindow } from '@qiraa/assessment';
import type { StatusToken } from '../rules/ruleSet';

/**
 * Why a skill status is the safe stop `do_not_decide_yet` (closed codes): too little evidence for the
 * sub-skill, sources that disagree by more than the rule set's margin, or nothing left after voids.
 */
export const HOLD_REASONS = ['insufficient_evidence', 'split_evidence', 'not_assessed'] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

export interface SkillStatusKey {
  academicYear: string;
  window: ScreeningWindow;
  subSkillId: string;
}

/** What a teacher reads beside the status: the evidence the rules looked at, no more. */
export interface EvidenceSummary {
  /** Digital questions of the sub-skill in the window's ended sittings (pooled). */
  items: { answered: number; correct: number; percent: number | null; token: StatusToken | null };
  /** The results of the measures those questions belong to, per sitting. */
  measures: {
    sessionId: string;
    measureCode: string;
    raw: number;
    max: number;
    level: 1 | 2 | 3 | 4 | null;
    complete: boolean;
    provisional: boolean;
  }[];
  /** Oral readings and word-list reads of the sub-skill's cell, oldest first. */
  reads: {
    attemptId: string;
    cell: string;
    at: string;
    wcpm: number | null;
    accuracy: number;
    band: StatusToken | null;
    provisional: boolean;
  }[];
  /** The oral status (SSR-02) when a banded read exists. */
  oralToken: StatusToken | null;
  /** Attempts of the window for this sub-skill that were voided (out of the decision). */
  voidedAttempts: number;
  /** Some evidence was scored with a cut table still being normed. */
  provisional: boolean;
}

/** One skill-status decision: the engine's answer for a student, sub-skill and window. */
export interface SkillStatusDecision extends SkillStatusKey {
  /** null exactly when `doNotDecideYet`. */
  status: StatusToken | null;
  /** The adequacy rule that judged the evidence (enough, or not enough: ADR-09); null only on the no-evidence row. */
  adrRuleId: string | null;
  /** The status rule that set the status (or the split: SSR-04); null when no status rule ran. */
  ssrRuleId: string | null;
  doNotDecideYet: boolean;
  holdReason: HoldReason | null;
  ruleSetVersion: string;
  /** The ids of the evidence events the decision used, sorted. */
  evidenceEventIds: string[];
  /** The voids that took attempts of this sub-skill and window out, sorted (so a void always changes the id). */
  voidEventIds: string[];
  evidence: EvidenceSummary;
}
