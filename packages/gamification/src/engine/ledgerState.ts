import { MASTERY_EVENT_SOURCE_KINDS, type MasteryEventSourceKind } from '../codes';
import { avatarTierFor, type RuleSet } from '../rules';
import { EMPTY_STREAK, type StreakState } from './streak';

/** What a decision about a student's next mastery event needs to know. */
export interface LedgerState {
  masteryCount: number;
  bySourceKind: Record<MasteryEventSourceKind, number>;
  /** Distinct school days with a mastery event (YYYY-MM-DD), ascending; the streak is folded from them. */
  days: readonly string[];
  /** foldStreak(days): kept so a decision extends it instead of re-folding every day. */
  streak: StreakState;
  /** XP credited per session id. */
  xpBySession: ReadonlyMap<string, number>;
  badgeCodes: ReadonlySet<string>;
}

export const emptyCounts = (): Record<MasteryEventSourceKind, number> =>
  Object.fromEntries(MASTERY_EVENT_SOURCE_KINDS.map((k) => [k, 0])) as Record<MasteryEventSourceKind, number>;

export const EMPTY_LEDGER: LedgerState = {
  masteryCount: 0,
  bySourceKind: emptyCounts(),
  days: [],
  streak: EMPTY_STREAK,
  xpBySession: new Map(),
  badgeCodes: new Set(),
};

export const tierOf = (state: LedgerState, rules: RuleSet) => avatarTierFor(state.masteryCount, rules);
