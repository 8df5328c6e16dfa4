import type { StatusToken } from '@qiraa/decisions';

/**
 * When an activated bundle's step counts as goal met, and when the bundle counts as complete (docs/sessions.md,
 * "Bundle progress"). Versioned data: every mastery event these rules earn is traceable to a rule id.
 */
export const BUNDLE_PROGRESS_RULES = {
  version: 'v1',
  /**
   * BPR-01: a step is goal met by the first skill-status decision (earliest `decidedAt`, then decision id)
   * decided at or after the bundle's first activation for the child, on a sub-skill of the step's skill,
   * with a status in `goalStatuses` (not a safe stop).
   */
  stepGoalMet: { ruleId: 'BPR-01', goalStatuses: ['on_track', 'strong'] as readonly StatusToken[] },
  /** BPR-02: the bundle is complete when every step of it is goal met. */
  completion: { ruleId: 'BPR-02' },
} as const;
