/** The closed enumeration MasteryEventSourceKind: exactly these eight. */
export const MASTERY_EVENT_SOURCE_KINDS = [
  'subskill_state_up',
  'cbm_trend_above_goal',
  'bundle_step_goal_met',
  'band_progression',
  'skill_status_transition',
  'domain_status_escalation',
  'bundle_completion',
  'scaffold_tier_step_up',
] as const;
export type MasteryEventSourceKind = (typeof MASTERY_EVENT_SOURCE_KINDS)[number];

/** Upstream halt signals: the engine stopped safely; nothing is written for them. */
export const HALT_SIGNALS = ['do_not_decide_yet', 'partial_domain_profile'] as const;
export type HaltSignal = (typeof HALT_SIGNALS)[number];
