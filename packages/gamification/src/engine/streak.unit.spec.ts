import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromEpochDay, isWeekend, toEpochDay } from './schoolDay';
import {
  applySchoolDay,
  DEFAULT_STREAK_RULES,
  EMPTY_STREAK,
  foldStreak,
  type StreakOutcome,
  type StreakRules,
  type StreakState,
} from './streak';

// Calendar used throughout: 2026-11-01 is a Sunday; Fridays/Saturdays are 6/7, 13/14, 20/21, 27/28 November.
const NO_HOLIDAYS: ReadonlySet<string> = new Set();

function ticked(outcome: StreakOutcome): Extract<StreakOutcome, { kind: 'ticked' }> {
  if (outcome.kind !== 'ticked') throw new Error(`expected a tick, got ${outcome.kind}`);
  return outcome;
}

/** Applies days one by one (in the given order), returning the final state and every outcome. */
function applyAll(
  days: readonly string[],
  holidays: ReadonlySet<string> = NO_HOLIDAYS,
  rules?: StreakRules,
  from: StreakState = EMPTY_STREAK,
): { state: StreakState; outcomes: StreakOutcome[] } {
  let state = from;
  const outcomes: StreakOutcome[] = [];
  for (const day of days) {
    const outcome = applySchoolDay(state, day, holidays, rules);
    outcomes.push(outcome);
    if (outcome.kind === 'ticked') state = outcome.state;
  }
  return { state, outcomes };
}

/** The next `count` Sunday-Thursday days starting at (and including, if a school day) `first`. */
function schoolDaysFrom(first: string, count: number): string[] {
  const days: string[] = [];
  for (let d = toEpochDay(first); days.length < count; d++) {
    const day = fromEpochDay(d);
    if (!isWeekend(day)) days.push(day);
  }
  return days;
}

/** Deterministic Fisher-Yates shuffle (mulberry32), so a failure is reproducible. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let s = seed >>> 0;
  const random = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe('defaults', () => {
  it('start empty with a 7-school-day grace and milestones 5, 10, 20', () => {
    expect(EMPTY_STREAK).toEqual({ current: 0, longest: 0, lastTickDate: null });
    expect(DEFAULT_STREAK_RULES).toEqual({ graceSchoolDays: 7, milestones: [5, 10, 20] });
    expect(Object.isFrozen(EMPTY_STREAK)).toBe(true);
    expect(Object.isFrozen(DEFAULT_STREAK_RULES)).toBe(true);
  });
});

describe('applySchoolDay', () => {
  it('starts the first ever streak at 1 without a restart', () => {
    const outcome = ticked(applySchoolDay(EMPTY_STREAK, '2026-11-01', NO_HOLIDAYS));
    expect(outcome).toEqual({
      kind: 'ticked',
      state: { current: 1, longest: 1, lastTickDate: '2026-11-01' },
      restarted: false,
      milestone: null,
    });
  });

  it('adds one per consecutive school day', () => {
    const { state, outcomes } = applyAll(['2026-11-01', '2026-11-02', '2026-11-03']);
    expect(state).toEqual({ current: 3, longest: 3, lastTickDate: '2026-11-03' });
    expect(outcomes.map((o) => ticked(o).restarted)).toEqual([false, false, false]);
  });

  it('does not mutate the state it is given', () => {
    const before: StreakState = { current: 2, longest: 4, lastTickDate: '2026-11-02' };
    const copy = { ...before };
    const outcome = ticked(applySchoolDay(before, '2026-11-03', NO_HOLIDAYS));
    expect(before).toEqual(copy);
    expect(outcome.state).toEqual({ current: 3, longest: 4, lastTickDate: '2026-11-03' });
  });

  describe('same day', () => {
    it('is idempotent: a second event on a ticked day changes nothing', () => {
      const state: StreakState = { current: 4, longest: 9, lastTickDate: '2026-11-04' };
      expect(applySchoolDay(state, '2026-11-04', NO_HOLIDAYS)).toEqual({ kind: 'same_day' });
      const { state: after, outcomes } = applyAll(['2026-11-01', '2026-11-01', '2026-11-02', '2026-11-02']);
      expect(outcomes.map((o) => o.kind)).toEqual(['ticked', 'same_day', 'ticked', 'same_day']);
      expect(after).toEqual({ current: 2, longest: 2, lastTickDate: '2026-11-02' });
    });
  });

  describe('earlier day', () => {
    it('returns earlier_day for a day before lastTickDate, and the streak carries on afterwards', () => {
      const state: StreakState = { current: 3, longest: 3, lastTickDate: '2026-11-04' };
      expect(applySchoolDay(state, '2026-11-03', NO_HOLIDAYS)).toEqual({ kind: 'earlier_day' });
      expect(applySchoolDay(state, '2025-12-31', NO_HOLIDAYS)).toEqual({ kind: 'earlier_day' });
      expect(ticked(applySchoolDay(state, '2026-11-05', NO_HOLIDAYS)).state).toEqual({
        current: 4,
        longest: 4,
        lastTickDate: '2026-11-05',
      });
    });

    it('compares across month and year boundaries', () => {
      const state: StreakState = { current: 1, longest: 1, lastTickDate: '2027-01-03' };
      expect(applySchoolDay(state, '2026-12-31', NO_HOLIDAYS).kind).toBe('earlier_day');
      expect(applySchoolDay(state, '2027-01-04', NO_HOLIDAYS).kind).toBe('ticked');
    });
  });

  describe('grace window', () => {
    const start: StreakState = { current: 3, longest: 3, lastTickDate: '2026-11-01' }; // Sunday

    it('keeps the streak after exactly 7 missed school days', () => {
      // Missed: 2, 3, 4, 5, 8, 9, 10 November (6/7 are the weekend).
      const outcome = ticked(applySchoolDay(start, '2026-11-11', NO_HOLIDAYS));
      expect(outcome.restarted).toBe(false);
      expect(outcome.state).toEqual({ current: 4, longest: 4, lastTickDate: '2026-11-11' });
    });

    it('breaks after 8 missed school days: the day that exceeds the grace starts again at 1', () => {
      // Missed: 2, 3, 4, 5, 8, 9, 10, 11 November.
      const outcome = ticked(applySchoolDay(start, '2026-11-12', NO_HOLIDAYS));
      expect(outcome.restarted).toBe(true);
      expect(outcome.milestone).toBeNull();
      expect(outcome.state).toEqual({ current: 1, longest: 3, lastTickDate: '2026-11-12' });
    });

    it('does not count a weekend toward the gap', () => {
      // Thursday -> Sunday, no school day missed, even with a zero grace.
      const thursday: StreakState = { current: 2, longest: 2, lastTickDate: '2026-11-05' };
      const outcome = ticked(
        applySchoolDay(thursday, '2026-11-08', NO_HOLIDAYS, { ...DEFAULT_STREAK_RULES, graceSchoolDays: 0 }),
      );
      expect(outcome.restarted).toBe(false);
      expect(outcome.state.current).toBe(3);
    });

    it('does not break over a gap that spans two weekends (9 calendar days missed, 6 school days)', () => {
      // Sunday 1 -> Tuesday 10: missed 2-5 and 8-9 (6 school days); 6/7 are the weekend.
      const outcome = ticked(applySchoolDay(start, '2026-11-10', NO_HOLIDAYS));
      expect(outcome.restarted).toBe(false);
      expect(outcome.state.current).toBe(4);
      // Sunday 1 -> Thursday 12 crosses the same weekend but misses 8 school days: that does break.
      expect(ticked(applySchoolDay(start, '2026-11-12', NO_HOLIDAYS)).restarted).toBe(true);
    });

    it('does not count holidays toward the gap', () => {
      const holidayWeek = new Set(['2026-11-08', '2026-11-09', '2026-11-10', '2026-11-11', '2026-11-12']);
      // Sunday 1 -> Sunday 15: 9 school days missed without holidays, only 4 with the holiday week.
      expect(ticked(applySchoolDay(start, '2026-11-15', NO_HOLIDAYS)).restarted).toBe(true);
      const outcome = ticked(applySchoolDay(start, '2026-11-15', holidayWeek));
      expect(outcome.restarted).toBe(false);
      expect(outcome.state.current).toBe(4);
    });

    it('follows a configured grace', () => {
      const strict: StreakRules = { graceSchoolDays: 0, milestones: [] };
      const monday: StreakState = { current: 2, longest: 2, lastTickDate: '2026-11-02' };
      expect(ticked(applySchoolDay(monday, '2026-11-03', NO_HOLIDAYS, strict)).restarted).toBe(false);
      expect(ticked(applySchoolDay(monday, '2026-11-04', NO_HOLIDAYS, strict)).restarted).toBe(true);
      const lenient: StreakRules = { graceSchoolDays: 20, milestones: [] };
      expect(ticked(applySchoolDay(monday, '2026-11-30', NO_HOLIDAYS, lenient)).restarted).toBe(false); // 19 missed
      expect(ticked(applySchoolDay(monday, '2026-12-02', NO_HOLIDAYS, lenient)).restarted).toBe(true); // 21 missed
    });

    it('handles a gap of years', () => {
      const outcome = ticked(applySchoolDay(start, '2029-11-01', NO_HOLIDAYS));
      expect(outcome.restarted).toBe(true);
      expect(outcome.state).toEqual({ current: 1, longest: 3, lastTickDate: '2029-11-01' });
    });
  });

  describe('weekend and holiday events', () => {
    it('ticks on a Friday, a Saturday and a holiday when there is an event', () => {
      // Thursday 5, Friday 6, Saturday 7, Sunday 8 (a holiday), Monday 9.
      const { state, outcomes } = applyAll(
        ['2026-11-05', '2026-11-06', '2026-11-07', '2026-11-08', '2026-11-09'],
        new Set(['2026-11-08']),
      );
      expect(outcomes.map((o) => o.kind)).toEqual(['ticked', 'ticked', 'ticked', 'ticked', 'ticked']);
      expect(state).toEqual({ current: 5, longest: 5, lastTickDate: '2026-11-09' });
    });

    it('continues from a Friday tick after a gap measured in school days only', () => {
      // Friday 6 -> Tuesday 17: missed 8-12 and 15-16 = 7 school days => still within grace.
      const friday = ticked(applySchoolDay(EMPTY_STREAK, '2026-11-06', NO_HOLIDAYS)).state;
      expect(ticked(applySchoolDay(friday, '2026-11-17', NO_HOLIDAYS)).restarted).toBe(false);
      expect(ticked(applySchoolDay(friday, '2026-11-18', NO_HOLIDAYS)).restarted).toBe(true);
    });
  });

  describe('milestones', () => {
    it('emits 5, 10 and 20 exactly once each, on the tick that reaches them', () => {
      const days = schoolDaysFrom('2026-11-01', 25);
      const { state, outcomes } = applyAll(days);
      const emitted = outcomes.flatMap((o, i) => {
        const t = ticked(o);
        return t.milestone === null ? [] : [{ index: i, milestone: t.milestone, current: t.state.current }];
      });
      expect(emitted).toEqual([
        { index: 4, milestone: 5, current: 5 },
        { index: 9, milestone: 10, current: 10 },
        { index: 19, milestone: 20, current: 20 },
      ]);
      expect(state.current).toBe(25);
    });

    it('does not re-emit on a same-day event at a milestone', () => {
      const days = schoolDaysFrom('2026-11-01', 5);
      const { outcomes } = applyAll([...days, days[4] as string]);
      expect(ticked(outcomes[4] as StreakOutcome).milestone).toBe(5);
      expect(outcomes[5]).toEqual({ kind: 'same_day' });
    });

    it('can be reached again by a new streak after a break', () => {
      const first = schoolDaysFrom('2026-11-01', 6);
      const second = schoolDaysFrom('2027-02-07', 5);
      const { outcomes } = applyAll([...first, ...second]);
      const milestones = outcomes.map((o) => ticked(o).milestone);
      expect(milestones).toEqual([null, null, null, null, 5, null, null, null, null, null, 5]);
      expect(ticked(outcomes[6] as StreakOutcome).restarted).toBe(true);
    });

    it('follows configured milestones, including 1', () => {
      const rules: StreakRules = { graceSchoolDays: 7, milestones: [1, 3] };
      const { outcomes } = applyAll(schoolDaysFrom('2026-11-01', 5), NO_HOLIDAYS, rules);
      expect(outcomes.map((o) => ticked(o).milestone)).toEqual([1, null, 3, null, null]);
    });

    it('reports a milestone of 1 on the tick that restarts the streak', () => {
      const rules: StreakRules = { graceSchoolDays: 0, milestones: [1] };
      const { outcomes } = applyAll(['2026-11-01', '2026-11-02', '2026-11-04'], NO_HOLIDAYS, rules);
      expect(outcomes.map((o) => [ticked(o).restarted, ticked(o).milestone])).toEqual([
        [false, 1],
        [false, null],
        [true, 1],
      ]);
    });
  });

  describe('longest', () => {
    it('is kept after a break and overtaken only when the new streak is longer', () => {
      const first = schoolDaysFrom('2026-11-01', 6);
      const { state: afterFirst } = applyAll(first);
      expect(afterFirst).toEqual({ current: 6, longest: 6, lastTickDate: '2026-11-08' });
      const second = schoolDaysFrom('2027-01-03', 7);
      const { outcomes } = applyAll(second, NO_HOLIDAYS, undefined, afterFirst);
      const states = outcomes.map((o) => ticked(o).state);
      expect(states.map((s) => [s.current, s.longest])).toEqual([
        [1, 6],
        [2, 6],
        [3, 6],
        [4, 6],
        [5, 6],
        [6, 6],
        [7, 7],
      ]);
    });
  });

  it('rejects a malformed day and invalid rules', () => {
    expect(() => applySchoolDay(EMPTY_STREAK, '2026-11-31', NO_HOLIDAYS)).toThrow(RangeError);
    expect(() =>
      applySchoolDay(EMPTY_STREAK, '2026-11-01', NO_HOLIDAYS, { graceSchoolDays: -1, milestones: [] }),
    ).toThrow(RangeError);
    expect(() =>
      applySchoolDay(EMPTY_STREAK, '2026-11-01', NO_HOLIDAYS, { graceSchoolDays: 1.5, milestones: [] }),
    ).toThrow(RangeError);
  });
});

describe('foldStreak', () => {
  const days = [
    ...schoolDaysFrom('2026-11-01', 12), // a 12-day streak (milestones 5, 10)
    '2026-11-20', // a Friday tick
    '2026-12-20', // after a long gap: restart
    '2026-12-21',
  ];

  it('is EMPTY_STREAK for no days', () => {
    expect(foldStreak([], NO_HOLIDAYS)).toEqual(EMPTY_STREAK);
  });

  it('equals applying the days one by one in ascending order', () => {
    const expected = applyAll(days).state;
    expect(expected).toEqual({ current: 2, longest: 13, lastTickDate: '2026-12-21' });
    expect(foldStreak(days, NO_HOLIDAYS)).toEqual(expected);
  });

  it('does not depend on the order of its input (shuffled many ways)', () => {
    const expected = foldStreak(days, NO_HOLIDAYS);
    for (let seed = 1; seed <= 50; seed++) {
      const input = shuffled(days, seed);
      expect(foldStreak(input, NO_HOLIDAYS), input.join(',')).toEqual(expected);
    }
    expect(foldStreak([...days].reverse(), NO_HOLIDAYS)).toEqual(expected);
  });

  it('ignores duplicates', () => {
    const withDuplicates = shuffled([...days, ...days.slice(0, 5), days[13] as string], 7);
    expect(foldStreak(withDuplicates, NO_HOLIDAYS)).toEqual(foldStreak(days, NO_HOLIDAYS));
    expect(foldStreak(withDuplicates, NO_HOLIDAYS).current).toBe(2);
  });

  it('passes holidays and rules through', () => {
    const sparse = ['2026-11-01', '2026-11-15'];
    const holidayWeek = new Set(['2026-11-08', '2026-11-09', '2026-11-10', '2026-11-11', '2026-11-12']);
    expect(foldStreak(sparse, NO_HOLIDAYS)).toEqual({ current: 1, longest: 1, lastTickDate: '2026-11-15' });
    expect(foldStreak(sparse, holidayWeek)).toEqual({ current: 2, longest: 2, lastTickDate: '2026-11-15' });
    expect(foldStreak(sparse, NO_HOLIDAYS, { graceSchoolDays: 9, milestones: [] })).toEqual({
      current: 2,
      longest: 2,
      lastTickDate: '2026-11-15',
    });
  });

  it('rejects a malformed day anywhere in the input', () => {
    expect(() => foldStreak(['2026-11-01', '2026-11-31'], NO_HOLIDAYS)).toThrow(RangeError);
  });

  it('property: equals sequential application in ascending order, for any set of days, holidays and grace', () => {
    const base = toEpochDay('2026-09-01');
    const dayArb = fc.integer({ min: 0, max: 400 }).map((offset) => fromEpochDay(base + offset));
    fc.assert(
      fc.property(
        fc.array(dayArb, { maxLength: 60 }),
        fc.uniqueArray(dayArb, { maxLength: 30 }),
        fc.integer({ min: 0, max: 10 }),
        (input, holidayList, graceSchoolDays) => {
          const holidays = new Set(holidayList);
          const rules: StreakRules = { graceSchoolDays, milestones: [2, 5, 10] };
          const ascending = [...input].sort();
          const sequential = applyAll(ascending, holidays, rules);
          const folded = foldStreak(input, holidays, rules);
          expect(folded).toEqual(sequential.state);
          expect(foldStreak([...input].reverse(), holidays, rules)).toEqual(folded);
          // Ascending application never sees an earlier day; repeats are same_day.
          expect(sequential.outcomes.some((o) => o.kind === 'earlier_day')).toBe(false);
          expect(sequential.outcomes.filter((o) => o.kind === 'ticked')).toHaveLength(new Set(input).size);
          expect(folded.longest).toBeGreaterThanOrEqual(folded.current);
          expect(folded.current).toBeLessThanOrEqual(new Set(input).size);
        },
      ),
      { numRuns: 300 },
    );
  });
});
