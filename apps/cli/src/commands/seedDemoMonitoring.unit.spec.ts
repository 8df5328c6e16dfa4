import { windowOn } from '@qiraa/assessment';
import { describe, expect, it } from 'vitest';
import { demoCalendar } from './demoWindowCalendar';
import { monitoringPlan } from './seedDemoMonitoring';

const YEAR = '2026-2027';
const DAY = 86_400_000;
const addDays = (day: string, n: number) => new Date(Date.parse(day) + n * DAY).toISOString().slice(0, 10);
const everyDay = (from: string, to: string) => {
  const days: string[] = [];
  for (let t = Date.parse(from); t <= Date.parse(to); t += DAY) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
};

describe('monitoringPlan (the demo seed’s probe days)', () => {
  it('on every seed day of the year: weekly probes in the past, inside BOY, or none when BOY began too recently', () => {
    let seeded = 0;
    for (const today of everyDay('2026-08-01', '2027-07-29')) {
      const calendar = demoCalendar(YEAR, today);
      if (calendar.kind !== 'calendar') throw new Error(today);
      const boy = calendar.windows[0]!;
      const plan = monitoringPlan(boy.startsOn, today);
      if (plan.kind === 'too_early') {
        // Six weeks before yesterday fall before BOY's first day.
        expect(addDays(today, -43) < boy.startsOn, today).toBe(true);
        continue;
      }
      seeded++;
      expect(plan.risingDays, today).toHaveLength(7);
      expect(plan.dippingDays).toEqual(plan.risingDays.slice(2));
      expect(plan.risingDays.at(-1)).toBe(addDays(today, -1));
      // PMR-02: at least six probes over at least 35 days; one a week.
      expect(Date.parse(plan.risingDays.at(-1)!) - Date.parse(plan.risingDays[0]!)).toBe(42 * DAY);
      for (const day of plan.risingDays) {
        expect(day < today, today).toBe(true);
        expect(windowOn(calendar.windows, day), `${today}: ${day}`).toBe('BOY');
      }
    }
    // From mid-October (six weeks after the usual BOY start) to the year's end.
    expect(seeded).toBeGreaterThan(280);
  });

  it('seeds none early in the year or before it begins (BOY opened by hand on its usual dates)', () => {
    expect(monitoringPlan('2026-09-01', '2026-09-20')).toEqual({ kind: 'too_early', firstDay: '2026-08-08' });
    expect(monitoringPlan('2026-08-05', '2026-08-05').kind).toBe('too_early');
    const before = demoCalendar(YEAR, '2026-06-15');
    expect(before.kind === 'calendar' && before.openBoyByHand).toBe(true);
    expect(monitoringPlan('2026-09-01', '2026-06-15').kind).toBe('too_early');
    expect(monitoringPlan('2026-09-01', '2026-10-14')).toMatchObject({
      kind: 'probes',
      risingDays: ['2026-09-01', '2026-09-08', '2026-09-15', '2026-09-22', '2026-09-29', '2026-10-06', '2026-10-13'],
    });
  });
});
