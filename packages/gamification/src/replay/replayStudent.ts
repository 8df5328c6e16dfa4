import { decide } from '../domain/decide';
import { EMPTY_LEDGER, emptyCounts, type LedgerState } from '../domain/ledgerState';
import {
  BADGE_AWARDED,
  BADGE_RESCINDED,
  type BadgeAwarded,
  type BadgeRescinded,
  MASTERY_EVENT_RECORDED,
  type MasteryEventRecorded,
} from '../events';
import { avatarTierFor, CURRENT_RULE_SET, type RuleSet, ruleSetVersion } from '../rules';

/** The keys replay derives and compares (spec: Replay response `derived` and `stored`). */
export interface LedgerKeys {
  xpBalance: number;
  /** Active badges (awarded and not rescinded), sorted. */
  badgeCodes: string[];
  avatarTier: number;
}

/** What the fold needs of a stored event: `RecordedEvent` from `store.readStream` fits. */
export interface StreamEvent {
  type: string;
  createdAt: Date;
  data: unknown;
}

export interface StudentStreams {
  /** `mastery-<id>`, in stream order (the order the decisions were taken in). */
  mastery: readonly StreamEvent[];
  /** `badgeaward-<id>`: only to learn which mastery event a rescinded `studentBadgeId` belongs to. */
  badgeAwards: readonly StreamEvent[];
  /** `badgerescind-<id>`. */
  badgeRescinds: readonly StreamEvent[];
}

export interface ReplayFold {
  keys: LedgerKeys;
  state: LedgerState;
  /** Badge decided per mastery event id, with the bonus XP that came with it. */
  badges: ReadonlyMap<string, { code: string; bonus: number }>;
}

/**
 * Re-decides a student's ledger from the mastery stream alone: every event up to `asOf` (its createdAt) goes
 * through the pure `decide`/`evolve` with the rule set version it pinned, exactly as the command decided it.
 * Rescinds up to `asOf` then remove their badge and take back its bonus. The XP, badge and award rows the
 * command wrote are never read, so a read model that disagrees shows up as drift.
 */
export function replayStudent(
  streams: StudentStreams,
  asOf: Date,
  holidays: ReadonlySet<string> = new Set(),
): ReplayFold {
  const until = asOf.getTime();
  let rules: RuleSet = CURRENT_RULE_SET;
  let xp = 0;
  const seen = new Set<string>();
  const badges = new Map<string, { code: string; bonus: number }>();
  // The fold owns its state, so it grows it in place (what `evolve` does with copies): a copy of the
  // session map or of the counts per event would cost more than the decision itself on a long history.
  const xpBySession = new Map<string, number>();
  const earnedCodes = new Set<string>();
  const daySet = new Set<string>();
  const bySourceKind = emptyCounts();
  const state = { ...EMPTY_LEDGER, bySourceKind, xpBySession, badgeCodes: earnedCodes };
  for (const event of streams.mastery) {
    if (event.type !== MASTERY_EVENT_RECORDED || event.createdAt.getTime() > until) continue;
    const d = event.data as MasteryEventRecorded;
    if (seen.has(d.masteryEventId)) continue;
    seen.add(d.masteryEventId);
    rules = ruleSetVersion(d.ruleVersion);
    const input = {
      masteryEventId: d.masteryEventId,
      sourceKind: d.sourceKind,
      schoolDay: d.schoolDay,
      sessionId: d.sessionId,
    };
    const decision = decide(state, input, rules, holidays);
    const earned = decision.xpCredit + decision.badgeBonus;
    xpBySession.set(input.sessionId, (xpBySession.get(input.sessionId) ?? 0) + earned);
    if (decision.badge) earnedCodes.add(decision.badge.code);
    if (!daySet.has(input.schoolDay)) {
      daySet.add(input.schoolDay);
      const last = state.days.at(-1);
      state.days =
        last === undefined || input.schoolDay > last
          ? [...state.days, input.schoolDay]
          : [...state.days, input.schoolDay].sort();
    }
    state.masteryCount += 1;
    bySourceKind[input.sourceKind] += 1;
    state.streak = decision.streak;
    xp += earned;
    if (decision.badge) badges.set(d.masteryEventId, { code: decision.badge.code, bonus: decision.badgeBonus });
  }
  const triggerOf = new Map<number, string>();
  for (const event of streams.badgeAwards) {
    if (event.type !== BADGE_AWARDED) continue;
    const d = event.data as BadgeAwarded;
    triggerOf.set(d.studentBadgeId, d.triggeringMasteryEventId);
  }
  const rescinded = new Set<string>();
  for (const event of streams.badgeRescinds) {
    if (event.type !== BADGE_RESCINDED || event.createdAt.getTime() > until) continue;
    const trigger = triggerOf.get((event.data as BadgeRescinded).studentBadgeId);
    const badge = trigger === undefined ? undefined : badges.get(trigger);
    if (!trigger || !badge || rescinded.has(trigger)) continue;
    rescinded.add(trigger);
    xp -= badge.bonus;
  }

  const badgeCodes = [...badges]
    .filter(([trigger]) => !rescinded.has(trigger))
    .map(([, badge]) => badge.code)
    .sort();
  return { keys: { xpBalance: xp, badgeCodes, avatarTier: avatarTierFor(state.masteryCount, rules) }, state, badges };
}
