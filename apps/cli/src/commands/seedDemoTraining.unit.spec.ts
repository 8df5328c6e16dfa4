import { describe, expect, it } from 'vitest';
import { trainingPlan } from './seedDemoTraining';

describe('trainingPlan', () => {
  it('four weeks of past school days (Sunday to Thursday) before today, the first and last 21+ days apart', () => {
    const plan = trainingPlan('2026-2027', '2026-11-25');
    expect(plan.kind).toBe('days');
    if (plan.kind !== 'days') return;
    expect(plan.schoolDays[0]).toBe('2026-10-28');
    expect(plan.schoolDays.at(-1)).toBe('2026-11-24');
    for (const day of plan.schoolDays) expect([5, 6]).not.toContain(new Date(`${day}T00:00:00Z`).getUTCDay());
    const span = (Date.parse(plan.schoolDays.at(-1)!) - Date.parse(plan.schoolDays[0]!)) / 86_400_000;
    expect(span).toBeGreaterThanOrEqual(21);
  });

  it('nothing before the academic year has run four weeks, nor after it ends', () => {
    expect(trainingPlan('2026-2027', '2026-08-20')).toEqual({ kind: 'too_early', firstDay: '2026-07-23' });
    expect(trainingPlan('2026-2027', '2026-06-01').kind).toBe('too_early');
    expect(trainingPlan('2026-2027', '2027-08-02').kind).toBe('too_early');
    expect(trainingPlan('2026-2027', '2026-08-29').kind).toBe('days');
  });
});
