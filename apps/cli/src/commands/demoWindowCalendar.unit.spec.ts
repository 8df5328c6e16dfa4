import { checkCalendar, defaultCalendar, windowOn } from '@qiraa/assessment';
import { describe, expect, it } from 'vitest';
import { demoCalendar } from './demoWindowCalendar';

const YEAR = '2026-2027';
const everyDay = (from: string, to: string) => {
  const days: string[] = [];
  for (let t = Date.parse(from); t <= Date.parse(to); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
};

describe('demoCalendar', () => {
  it('puts today inside BOY of a valid calendar on every day of the academic year but its last two', () => {
    for (const today of everyDay('2026-08-01', '2027-07-29')) {
      const plan = demoCalendar(YEAR, today);
      expect(plan.kind, today).toBe('calendar');
      if (plan.kind !== 'calendar') continue;
      expect(checkCalendar(YEAR, plan.windows), today).toEqual([]);
      expect(windowOn(plan.windows, today), today).toBe('BOY');
      expect(plan.openBoyByHand).toBe(false);
    }
  });

  it('keeps the usual calendar when today is inside the usual BOY, and the usual MOY and EOY after a late BOY', () => {
    expect(demoCalendar(YEAR, '2026-09-10')).toEqual({
      kind: 'calendar',
      windows: defaultCalendar(YEAR),
      openBoyByHand: false,
    });
    const late = demoCalendar(YEAR, '2026-11-24');
    expect(late).toEqual({
      kind: 'calendar',
      windows: [{ window: 'BOY', startsOn: '2026-09-01', endsOn: '2026-12-21' }, ...defaultCalendar(YEAR).slice(1)],
      openBoyByHand: false,
    });
  });

  it('opens the usual BOY by hand before the year begins, and gives up on the last two days of the year', () => {
    expect(demoCalendar(YEAR, '2026-05-02')).toEqual({
      kind: 'calendar',
      windows: defaultCalendar(YEAR),
      openBoyByHand: true,
    });
    expect(demoCalendar(YEAR, '2027-07-30')).toEqual({ kind: 'year_over' });
    expect(demoCalendar(YEAR, '2027-09-01')).toEqual({ kind: 'year_over' });
  });
});
