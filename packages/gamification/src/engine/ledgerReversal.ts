import type { MasteryEventSourceKind } from '../codes';
import { ruleSetVersion } from '../rules';
import { foldStreak, type StreakState } from './streak';

/** What a reversal changes: the counts the tier and badges read, and the days the streak is folded from. */
export interface ReversibleState {
  masteryCount: number;
  bySourceKind: Record<MasteryEventSourceKind, number>;
  days: readonly string[];
  streak: StreakState;
}

/**
 * The state once a mastery event no longer counts: one event less in total and in its kind; its school day
 * leaves the streak's days when no other live event falls on it. Pure: the command and replay share it.
 */
export function withoutMasteryEvent(
  state: ReversibleState,
  reversed: { sourceKind: MasteryEventSourceKind; schoolDay: string; dayStillLive: boolean },
  holidays: ReadonlySet<string>,
  ruleVersion: number,
): ReversibleState {
  const rules = ruleSetVersion(ruleVersion);
  const bySourceKind = { ...state.bySourceKind, [reversed.sourceKind]: state.bySourceKind[reversed.sourceKind] - 1 };
  const days = reversed.dayStillLive ? state.days : state.days.filter((d) => d !== reversed.schoolDay);
  const streak =
    days === state.days
      ? state.streak
      : foldStreak(days, holidays, {
          graceSchoolDays: rules.streakGraceSchoolDays,
          milestones: rules.streakMilestones,
        });
  return { masteryCount: state.masteryCount - 1, bySourceKind, days, streak };
}

/**
 * A badge the reversed event triggered stays when its rule still holds without the event (another event of
 * the kind earned it as well); otherwise the void rescinds it.
 */
export function badgeStillEarned(code: string, ruleVersion: number, state: ReversibleState): boolean {
  const rule = ruleSetVersion(ruleVersion).badges.find((b) => b.code === code);
  return rule
    ? rule.earned({
        masteryCount: state.masteryCount,
        bySourceKind: state.bySourceKind,
        streakCurrent: state.streak.current,
      })
    : false;
}
