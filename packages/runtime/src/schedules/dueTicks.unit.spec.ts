import { defineSchedule } from '@qiraa/kernel';
import { describe, expect, it } from 'vitest';
import { jobSchedulersOf } from './bullmqTicks';
import { latestTicks, nextDue } from './dueTicks';

const run = async () => ({});
const endOfDay = defineSchedule({ name: 'e', cadence: 'school_day_end', description: '', run });
const hourly = defineSchedule({ name: 'h', cadence: 'hourly', description: '', run });
const daily = defineSchedule({ name: 'd', cadence: 'daily', description: '', run });
const at = (iso: string, timeZones = ['Asia/Amman']) => ({ now: new Date(iso), timeZones, schoolDayEndHour: 20 });

describe('due ticks', () => {
  it('school_day_end: the latest school day whose 20:00 local has passed, weekends skipped', () => {
    // 2026-11-26 is a Thursday; Amman is UTC+3 (no DST since 2022).
    expect(latestTicks(endOfDay, at('2026-11-26T16:59:59Z'))[0]).toMatchObject({
      key: 'Asia/Amman 2026-11-25',
      schoolDay: '2026-11-25',
      dueAt: new Date('2026-11-25T17:00:00Z'),
    });
    expect(latestTicks(endOfDay, at('2026-11-26T17:00:00Z'))[0]!.key).toBe('Asia/Amman 2026-11-26');
    // Friday and Saturday: still Thursday's tick; Sunday before 20:00 too.
    expect(latestTicks(endOfDay, at('2026-11-28T20:00:00Z'))[0]!.key).toBe('Asia/Amman 2026-11-26');
    expect(latestTicks(endOfDay, at('2026-11-29T10:00:00Z'))[0]!.key).toBe('Asia/Amman 2026-11-26');
    expect(nextDue(endOfDay, at('2026-11-27T10:00:00Z'))).toEqual(new Date('2026-11-29T17:00:00Z'));
  });

  it('school_day_end: one tick per time zone, each at its own local hour (Berlin changes offset in March)', () => {
    const ticks = latestTicks(endOfDay, at('2027-03-29T19:30:00Z', ['Asia/Amman', 'Europe/Berlin']));
    expect(ticks.map((t) => [t.key, t.dueAt.toISOString()])).toEqual([
      ['Asia/Amman 2027-03-29', '2027-03-29T17:00:00.000Z'],
      ['Europe/Berlin 2027-03-29', '2027-03-29T18:00:00.000Z'],
    ]);
    expect(latestTicks(endOfDay, at('2027-03-29T19:30:00Z', []))).toEqual([]);
  });

  it('hourly and daily: the hour and the UTC day that started last', () => {
    expect(latestTicks(hourly, at('2026-11-27T14:59:00Z'))[0]).toMatchObject({
      key: '2026-11-27T14',
      dueAt: new Date('2026-11-27T14:00:00Z'),
    });
    expect(latestTicks(daily, at('2026-11-27T14:59:00Z'))[0]!.key).toBe('2026-11-27');
    expect(nextDue(daily, at('2026-11-27T14:59:00Z'))).toEqual(new Date('2026-11-28T00:00:00Z'));
  });

  it('the BullMQ job schedulers: a cron pattern and a time zone each, Sunday to Thursday for the end of the school day', () => {
    expect(jobSchedulersOf(endOfDay, ['Asia/Amman', 'Asia/Riyadh'], 20)).toEqual([
      { id: 'e@Asia/Amman', pattern: '0 20 * * 0-4', tz: 'Asia/Amman' },
      { id: 'e@Asia/Riyadh', pattern: '0 20 * * 0-4', tz: 'Asia/Riyadh' },
    ]);
    expect(jobSchedulersOf(hourly, [], 20)).toEqual([{ id: 'h', pattern: '0 * * * *', tz: 'UTC' }]);
  });
});
