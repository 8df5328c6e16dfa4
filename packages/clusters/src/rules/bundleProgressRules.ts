import type { StatusToken } from '@qiraa/decisions';

/**
 * When an activated bundle's step counts as goal met, and when the bundle counts as complete (docs/sessions.md,
 * "Bundle progress"). Versioned data: every mastery event these rules earn is traceable to a rule id.
 */
export const BUNDLE_PROGRESS_RULES = {
  version: 'v2',
  /**
   * BPR-01: a step is goal met by the earliest of
   * - a skill-status decision decided at or after the bundle's first activation for the child, on a sub-skill
   *   of the step's skill, with a status in `goalStatuses` (not a safe stop); or
   * - (v2) an online session the child completed at or after that activation whose answers on sub-skills of
   *   the step's skill number at least `session.minAnswered` with at least `session.minCorrectShare` right
   *   (the real answers of the queue, `SessionSlotCompleted`).
   * Ties by time, then the decision or session id.
   */
  stepGoalMet: {
    ruleId: 'BPR-01',
    goalStatuses: ['on_track', 'strong'] as readonly StatusToken[],
    session: { minAnswered: 3, minCorrectShare: 0.8 },
  },
  /** BPR-02: the bundle is complete when every step of it is goal met. */
  completion: { ruleId: 'BPR-02' },
} as const;
