import { decide } from '../engine/decideMasteryEvent';
import { badgeStillEarned, withoutMasteryEvent } from '../engine/ledgerReversal';
import { EMPTY_LEDGER, emptyCounts, type LedgerState } from '../engine/ledgerState';
import {
  BADGE_AWARDED,
  BADGE_RESCINDED,
  gamificationEvents,
  MASTERY_EVENT_RECORDED,
  MASTERY_EVENT_REVERSED,
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

/**
 * What the fold needs of a stored event: `RecordedEvent` from `store.readStream` fits (read as the context's
 * union, `gamificationEvents`; the PostgreSQL read fills only the data fields the fold uses).
 */
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
 * A reversal (`MasteryEventReversed`, a void's) takes its event out of the counts and days at its place in the
 * stream, takes its credit back, and rescinds its badge when the badge's rule no longer holds
 * (`engine/ledgerReversal`, shared with the command). A teacher's rescind up to `asOf` removes its badge and takes back its bonus. The XP, badge and award rows the
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
  // For reversals: what each event earned, and the live events per school day.
  const earnedBy = new Map<
    string,
    { sourceKind: MasteryEventRecorded['sourceKind']; schoolDay: string; credit: number; ruleVersion: number }
  >();
  const liveOnDay = new Map<string, number>();
  const reversed = new Set<string>();
  const rescinded = new Set<string>();
  const rescindAt = rescindTimes(streams, until);
  for (const event of gamificationEvents(streams.mastery)) {
    if (event.createdAt.getTime() > until) continue;
    if (event.type === MASTERY_EVENT_REVERSED) {
      const d = event.data;
      const earned = earnedBy.get(d.masteryEventId);
      if (!earned || reversed.has(d.masteryEventId)) continue;
      reversed.add(d.masteryEventId);
      const left = (liveOnDay.get(earned.schoolDay) ?? 1) - 1;
      liveOnDay.set(earned.schoolDay, left);
      const after = withoutMasteryEvent(
        state,
        { sourceKind: earned.sourceKind, schoolDay: earned.schoolDay, dayStillLive: left > 0 },
        holidays,
        earned.ruleVersion,
      );
      if (left === 0) daySet.delete(earned.schoolDay);
      state.masteryCount = after.masteryCount;
      bySourceKind[earned.sourceKind] = after.bySourceKind[earned.sourceKind];
      state.days = after.days;
      state.streak = after.streak;
      xp -= earned.credit;
      const badge = badges.get(d.masteryEventId);
      // A teacher's rescind committed before the void already took the bonus back.
      const rescindedBefore = (rescindAt.get(d.masteryEventId) ?? Number.POSITIVE_INFINITY) < event.createdAt.getTime();
      if (badge && !rescindedBefore && !badgeStillEarned(badge.code, earned.ruleVersion, state)) {
        rescinded.add(d.masteryEventId);
        xp -= badge.bonus;
      }
      continue;
    }
    if (event.type !== MASTERY_EVENT_RECORDED) continue;
    const d = event.data;
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
    liveOnDay.set(input.schoolDay, (liveOnDay.get(input.schoolDay) ?? 0) + 1);
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
    earnedBy.set(d.masteryEventId, {
      sourceKind: d.sourceKind,
      schoolDay: d.schoolDay,
      credit: decision.xpCredit,
      ruleVersion: d.ruleVersion,
    });
    if (decision.badge) badges.set(d.masteryEventId, { code: decision.badge.code, bonus: decision.badgeBonus });
  }
  // The rescinds the voids did not make (a teacher's): each takes its badge's bonus back once.
  for (const trigger of rescindAt.keys()) {
    const badge = badges.get(trigger);
    if (!badge || rescinded.has(trigger)) continue;
    rescinded.add(trigger);
    xp -= badge.bonus;
  }

  const badgeCodes = [...badges]
    .filter(([trigger]) => !rescinded.has(trigger))
    .map(([, badge]) => badge.code)
    .sort();
  return { keys: { xpBalance: xp, badgeCodes, avatarTier: avatarTierFor(state.masteryCount, rules) }, state, badges };
}

/** When each badge (by its triggering mastery event) was first rescinded, up to `until`. */
function rescindTimes(streams: StudentStreams, until: number): Map<string, number> {
  const triggerOf = new Map<number, string>();
  for (const event of gamificationEvents(streams.badgeAwards)) {
    if (event.type !== BADGE_AWARDED) continue;
    const d = event.data;
    triggerOf.set(d.studentBadgeId, d.triggeringMasteryEventId);
  }
  const at = new Map<string, number>();
  for (const event of gamificationEvents(streams.badgeRescinds)) {
    if (event.type !== BADGE_RESCINDED || event.createdAt.getTime() > until) continue;
    const trigger = triggerOf.get(event.data.studentBadgeId);
    if (trigger && !at.has(trigger)) at.set(trigger, event.createdAt.getTime());
  }
  return at;
}
