import type { SkillStatusDecision } from '../engine/skillStatusTypes';

/** The fields of a skill-status decision a replay re-derives and compares (decidedAt is a clock, not derived). */
export const REPLAY_FIELDS = [
  'status',
  'adrRuleId',
  'ssrRuleId',
  'doNotDecideYet',
  'holdReason',
  'ruleSetVersion',
  'evidenceEventIds',
  'voidEventIds',
  'evidence',
  'decisionId',
] as const;
export type ReplayField = (typeof REPLAY_FIELDS)[number];

/** One key's decision as a replay shows it, derived or stored. */
export type ReplayedDecision = Pick<SkillStatusDecision, Exclude<ReplayField, 'decisionId'>> & { decisionId: string };

/** JSON with its object keys sorted: jsonb reorders keys, so equality is on the canonical text. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** The fields in which two decisions of one key differ; every field when one side is missing. */
export function driftOf(derived: ReplayedDecision | null, stored: ReplayedDecision | null): ReplayField[] {
  if (!derived || !stored) return derived === stored ? [] : [...REPLAY_FIELDS];
  return REPLAY_FIELDS.filter((f) => canonical(derived[f]) !== canonical(stored[f]));
}
