/**
 * Gamification streak rules: a pure state machine over school days. No database, no clock, no I/O.
 *
 * - A streak ticks once per day that has at least one mastery event (a second event the same day is a no-op).
 * - Between two ticks, the school days with no event form the gap. Fridays and Saturdays (the weekend in
 *   Jordan/Palestine) and configured holidays never count toward the gap.
 * - A gap longer than `graceSchoolDays` (default 7) breaks the streak; the tick that exceeds it starts a new
 *   streak at `current = 1`. A gap of exactly `graceSchoolDays` keeps it going.
 * - A tick that brings `current` to one of `milestones` (default 5, 10, 20) reports that milestone.
 *
 * Design choice, weekends and holidays: a day that is a weekend or a holiday still ticks if it has an event (an
 * event on a Friday is a tick and counts toward `current`), but such days never count toward a gap. Practising on
 * a day off is rewarded; not practising on one is never penalised.
 *
 * Design choice, milestones: a milestone is reported by the one tick that makes `current` equal to it, so it is
 * reported once per streak. After a break the new streak can reach (and report) the same milestone again; a
 * caller that wants "once ever" must remember which milestones it has already awarded.
 *
 * Out-of-order days: the live projection only moves forward. `applySchoolDay` with a day before `lastTickDate`
 * (a late-delivered event) returns `earlier_day` and changes nothing, because inserting a day into the past could
 * change every later gap. Replay (`foldStreak` over all the ticked days, which sorts them) is the source of truth;
 * late deliveries are rare, and the caller decides how to reconcile (for example by recomputing with `foldStreak`).
 */
import { schoolDaysBetween, toEpochDay } from './schoolDay';

export interface StreakRules {
  /** The longest run of school days without an event that does not break the streak. */
  graceSchoolDays: number;
  /** Values of `current` that emit a milestone when a tick reaches them. */
  milestones: readonly number[];
}

export interface StreakState {
  /** Ticked days in the current streak (0 before the first tick). */
  current: number;
  /** The best `current` ever reached. */
  longest: number;
  /** The last ticked day (`YYYY-MM-DD`), or null before the first tick. */
  lastTickDate: string | null;
}

export const DEFAULT_STREAK_RULES: StreakRules = Object.freeze({
  graceSchoolDays: 7,
  milestones: Object.freeze([5, 10, 20]),
});

export const EMPTY_STREAK: StreakState = Object.freeze({ current: 0, longest: 0, lastTickDate: null });

export type StreakOutcome =
  /** The day was already ticked: nothing changes. */
  | { kind: 'same_day' }
  /** The day ticked; `restarted` when the gap broke the previous streak; `milestone` when one was reached. */
  | { kind: 'ticked'; state: StreakState; restarted: boolean; milestone: number | null }
  /** The day is before `lastTickDate` (late delivery): the live streak is unchanged; see the module comment. */
  | { kind: 'earlier_day' };

function assertRules(rules: StreakRules): void {
  if (!Number.isSafeInteger(rules.graceSchoolDays) || rules.graceSchoolDays < 0) {
    throw new RangeError(`graceSchoolDays must be a non-negative integer, got ${rules.graceSchoolDays}`);
  }
}

/**
 * Applies one day that has at least one mastery event to the streak. `day` is a `YYYY-MM-DD` school day (see
 * `schoolDayOf` / `schoolDayOfEvent`); `holidays` are days that, like Fridays and Saturdays, never count toward a
 * gap. Throws a `RangeError` for a malformed day or invalid rules.
 */
export function applySchoolDay(
  state: StreakState,
  day: string,
  holidays: ReadonlySet<string>,
  rules: StreakRules = DEFAULT_STREAK_RULES,
): StreakOutcome {
  toEpochDay(day);
  assertRules(rules);
  const last = state.lastTickDate;
  let current: number;
  let restarted = false;
  if (last === null) {
    current = 1;
  } else {
    // Both are validated YYYY-MM-DD strings, so string order is date order.
    if (day === last) return { kind: 'same_day' };
    if (day < last) return { kind: 'earlier_day' };
    const gap = schoolDaysBetween(last, day, holidays);
    if (gap > rules.graceSchoolDays) {
      current = 1;
      restarted = true;
    } else {
      current = state.current + 1;
    }
  }
  const next: StreakState = { current, longest: Math.max(state.longest, current), lastTickDate: day };
  const milestone = rules.milestones.includes(current) ? current : null;
  return { kind: 'ticked', state: next, restarted, milestone };
}

/**
 * The streak after every day in `days` (each a day with at least one event), in any order and with duplicates:
 * the days are de-duplicated, sorted ascending and applied one by one from `EMPTY_STREAK`. This is the replay
 * path and the source of truth; it equals calling `applySchoolDay` on the days in ascending order.
 */
export function foldStreak(
  days: readonly string[],
  holidays: ReadonlySet<string>,
  rules: StreakRules = DEFAULT_STREAK_RULES,
): StreakState {
  for (const day of days) toEpochDay(day);
  assertRules(rules);
  const ordered = [...new Set(days)].sort();
  let state = EMPTY_STREAK;
  for (const day of ordered) {
    const outcome = applySchoolDay(state, day, holidays, rules);
    if (outcome.kind === 'ticked') state = outcome.state;
  }
  return state;
}
