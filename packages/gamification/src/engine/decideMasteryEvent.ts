import type { MasteryEventSourceKind } from '../codes';
import type { BadgeRule, RuleSet } from '../rules';
import { avatarTierFor } from '../rules';
import type { LedgerState } from './ledgerState';
import { applySchoolDay, foldStreak, type StreakRules, type StreakState } from './streak';

export interface MasteryInput {
  masteryEventId: string;
  sourceKind: MasteryEventSourceKind;
  schoolDay: string;
  sessionId: string;
}

/** Everything one mastery event earns, decided by one rule set. Pure: replay calls it too. */
export interface Decision {
  ruleVersion: number;
  /** XP for the mastery event itself, after the session cap (0: no credit row). */
  xpCredit: number;
  badge: BadgeRule | null;
  /** XP that comes with the badge: after the session cap in v1, always the full bonus from v2 on. */
  badgeBonus: number;
  /** The avatar tier reached by this event, when it is a new one. */
  tierAdvancedTo: number | null;
  /** The streak milestone this event's school day reached, if any. */
  streakMilestone: number | null;
  streak: { current: number; longest: number; lastTickDate: string | null };
}

export function decide(
  state: LedgerState,
  input: MasteryInput,
  rules: RuleSet,
  holidays: ReadonlySet<string>,
): Decision {
  const streakRules = { graceSchoolDays: rules.streakGraceSchoolDays, milestones: rules.streakMilestones };
  const before = state.streak;
  const after = streakWith(state, input.schoolDay, holidays, streakRules);

  const masteryCount = state.masteryCount + 1;
  const bySourceKind = { ...state.bySourceKind };
  bySourceKind[input.sourceKind] += 1;
  const badge =
    rules.badges.find(
      (b) => !state.badgeCodes.has(b.code) && b.earned({ masteryCount, bySourceKind, streakCurrent: after.current }),
    ) ?? null;

  const used = state.xpBySession.get(input.sessionId) ?? 0;
  const xpCredit = Math.max(0, Math.min(rules.xpBySourceKind[input.sourceKind], rules.sessionXpCap - used));
  const room = rules.sessionXpCap - used - xpCredit;
  const badgeBonus = !badge
    ? 0
    : rules.badgeBonusCapped
      ? Math.max(0, Math.min(rules.badgeBonusXp, room))
      : rules.badgeBonusXp;

  const tierBefore = avatarTierFor(state.masteryCount, rules);
  const tierAfter = avatarTierFor(masteryCount, rules);
  const reachedToday = after.lastTickDate === input.schoolDay && after.current !== before.current;
  return {
    ruleVersion: rules.version,
    xpCredit,
    badge,
    badgeBonus,
    tierAdvancedTo: tierAfter > tierBefore ? tierAfter : null,
    streakMilestone: reachedToday && rules.streakMilestones.includes(after.current) ? after.current : null,
    streak: after,
  };
}

/**
 * The streak once `day` has an event. A day after the last tick (the usual case) extends the kept state;
 * an earlier day re-folds all days, so the result never depends on delivery order.
 */
function streakWith(state: LedgerState, day: string, holidays: ReadonlySet<string>, rules: StreakRules): StreakState {
  const last = state.streak.lastTickDate;
  if (last === day || (last !== null && day < last && state.days.includes(day))) return state.streak;
  if (last === null || day > last) {
    const outcome = applySchoolDay(state.streak, day, holidays, rules);
    return outcome.kind === 'ticked' ? outcome.state : state.streak;
  }
  return foldStreak([...state.days, day], holidays, rules);
}

/** The state after the event and its decision: what the next decision builds on. */
export function evolve(state: LedgerState, input: MasteryInput, decision: Decision): LedgerState {
  const xpBySession = new Map(state.xpBySession);
  xpBySession.set(input.sessionId, (xpBySession.get(input.sessionId) ?? 0) + decision.xpCredit + decision.badgeBonus);
  return {
    masteryCount: state.masteryCount + 1,
    bySourceKind: { ...state.bySourceKind, [input.sourceKind]: state.bySourceKind[input.sourceKind] + 1 },
    days: state.days.includes(input.schoolDay) ? state.days : [...state.days, input.schoolDay].sort(),
    streak: decision.streak,
    xpBySession,
    badgeCodes: decision.badge ? new Set([...state.badgeCodes, decision.badge.code]) : state.badgeCodes,
  };
}
