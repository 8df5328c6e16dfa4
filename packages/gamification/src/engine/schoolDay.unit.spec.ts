import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_TIME_ZONE,
  fromEpochDay,
  isSchoolDayString,
  isWeekend,
  schoolDayOf,
  schoolDayOfEvent,
  schoolDaysBetween,
  toEpochDay,
} from './schoolDay';

// Calendar used throughout: 2026-11-01 is a Sunday; 2026-11-06/07, 13/14, 20/21, 27/28 are Friday/Saturday.
const NO_HOLIDAYS: ReadonlySet<string> = new Set();

describe('schoolDayOf', () => {
  it('puts 2026-11-20T22:30:00Z on 2026-11-21 in Asia/Amman (UTC+3) but on 2026-11-20 in UTC', () => {
    expect(schoolDayOf('2026-11-20T22:30:00Z', 'Asia/Amman')).toBe('2026-11-21');
    expect(schoolDayOf('2026-11-20T22:30:00Z', 'UTC')).toBe('2026-11-20');
    expect(schoolDayOf(new Date('2026-11-20T22:30:00Z'), 'Asia/Amman')).toBe('2026-11-21');
  });

  it('switches day exactly at local midnight in Asia/Amman (21:00Z)', () => {
    expect(schoolDayOf('2026-11-20T20:59:59.999Z', 'Asia/Amman')).toBe('2026-11-20');
    expect(schoolDayOf('2026-11-20T21:00:00.000Z', 'Asia/Amman')).toBe('2026-11-21');
  });

  it('crosses month and year boundaries in the zone', () => {
    expect(schoolDayOf('2026-12-31T21:00:00Z', 'Asia/Amman')).toBe('2027-01-01');
    expect(schoolDayOf('2026-11-30T21:30:00Z', 'Asia/Amman')).toBe('2026-12-01');
  });

  it('honours timestamps that carry their own offset', () => {
    expect(schoolDayOf('2026-11-21T01:30:00+03:00', 'Asia/Amman')).toBe('2026-11-21');
    expect(schoolDayOf('2026-11-21T01:30:00+03:00', 'UTC')).toBe('2026-11-20');
  });

  it('handles zones west of UTC', () => {
    // 03:00Z is 22:00 the previous evening in New York (UTC-5 in November).
    expect(schoolDayOf('2026-11-21T03:00:00Z', 'America/New_York')).toBe('2026-11-20');
  });

  it('uses the historical offset of the zone, not a fixed +3 (Amman was UTC+2 in winter before 2022)', () => {
    expect(schoolDayOf('2021-01-14T21:30:00Z', 'Asia/Amman')).toBe('2021-01-14');
    expect(schoolDayOf('2021-01-14T22:30:00Z', 'Asia/Amman')).toBe('2021-01-15');
  });

  it('rejects invalid timestamps and unknown zones', () => {
    expect(() => schoolDayOf('not a date', 'Asia/Amman')).toThrow(RangeError);
    expect(() => schoolDayOf(new Date(Number.NaN), 'Asia/Amman')).toThrow(RangeError);
    expect(() => schoolDayOf('2026-11-20T22:30:00Z', 'Mars/Olympus_Mons')).toThrow(RangeError);
  });
});

describe('schoolDayOfEvent', () => {
  it('lets an explicit schoolDay win over occurredAt', () => {
    expect(schoolDayOfEvent({ occurredAt: '2026-11-20T22:30:00Z', schoolDay: '2026-11-19' })).toBe('2026-11-19');
  });

  it('falls back to occurredAt in the given zone, defaulting to Asia/Amman', () => {
    expect(DEFAULT_TIME_ZONE).toBe('Asia/Amman');
    expect(schoolDayOfEvent({ occurredAt: '2026-11-20T22:30:00Z' })).toBe('2026-11-21');
    expect(schoolDayOfEvent({ occurredAt: '2026-11-20T22:30:00Z', schoolDay: null })).toBe('2026-11-21');
    expect(schoolDayOfEvent({ occurredAt: '2026-11-20T22:30:00Z' }, 'UTC')).toBe('2026-11-20');
  });

  it('rejects a malformed explicit schoolDay', () => {
    expect(() => schoolDayOfEvent({ occurredAt: '2026-11-20T22:30:00Z', schoolDay: '2026-11-31' })).toThrow(RangeError);
    expect(() => schoolDayOfEvent({ occurredAt: '2026-11-20T22:30:00Z', schoolDay: '20/11/2026' })).toThrow(RangeError);
  });
});

describe('day strings', () => {
  it('accepts real YYYY-MM-DD dates only', () => {
    expect(isSchoolDayString('2026-11-20')).toBe(true);
    expect(isSchoolDayString('2024-02-29')).toBe(true);
    for (const bad of [
      '2023-02-29',
      '2026-02-30',
      '2026-13-01',
      '2026-00-10',
      '2026-1-5',
      '20261120',
      '',
      '0050-01-01',
    ]) {
      expect(isSchoolDayString(bad), bad).toBe(false);
    }
  });

  it('converts to and from epoch days', () => {
    expect(toEpochDay('1970-01-01')).toBe(0);
    expect(toEpochDay('2026-11-21') - toEpochDay('2026-11-20')).toBe(1);
    expect(toEpochDay('2025-03-01') - toEpochDay('2025-02-28')).toBe(1);
    expect(toEpochDay('2024-03-01') - toEpochDay('2024-02-28')).toBe(2);
    expect(fromEpochDay(toEpochDay('2026-11-20'))).toBe('2026-11-20');
    expect(fromEpochDay(toEpochDay('2026-12-31') + 1)).toBe('2027-01-01');
    expect(() => toEpochDay('2026-11-31')).toThrow(RangeError);
  });
});

describe('isWeekend', () => {
  it('is true for Friday and Saturday only', () => {
    const week = {
      '2026-11-22': false, // Sunday
      '2026-11-23': false,
      '2026-11-24': false,
      '2026-11-25': false,
      '2026-11-26': false, // Thursday
      '2026-11-27': true, // Friday
      '2026-11-28': true, // Saturday
    };
    for (const [day, weekend] of Object.entries(week)) expect(isWeekend(day), day).toBe(weekend);
    expect(isWeekend('2024-02-29')).toBe(false); // Thursday
    expect(isWeekend('1970-01-02')).toBe(true); // Friday, epoch day 1
    expect(isWeekend('1969-12-27')).toBe(true); // Saturday, negative epoch day
    expect(isWeekend('1969-12-28')).toBe(false); // Sunday
  });

  describe('does not depend on the process time zone', () => {
    const original = process.env['TZ'];
    afterEach(() => {
      if (original === undefined) delete process.env['TZ'];
      else process.env['TZ'] = original;
    });

    for (const tz of ['Pacific/Pago_Pago', 'Pacific/Kiritimati', 'Asia/Amman']) {
      it(`under TZ=${tz}`, () => {
        process.env['TZ'] = tz;
        expect(isWeekend('2026-11-20')).toBe(true); // Friday
        expect(isWeekend('2026-11-22')).toBe(false); // Sunday
        expect(isWeekend('2026-11-26')).toBe(false); // Thursday
      });
    }
  });

  it('rejects a malformed day', () => {
    expect(() => isWeekend('2026-11-31')).toThrow(RangeError);
  });
});

describe('schoolDaysBetween', () => {
  it('is 0 for the same day, adjacent days and reversed bounds', () => {
    expect(schoolDaysBetween('2026-11-02', '2026-11-02', NO_HOLIDAYS)).toBe(0);
    expect(schoolDaysBetween('2026-11-02', '2026-11-03', NO_HOLIDAYS)).toBe(0);
    expect(schoolDaysBetween('2026-11-10', '2026-11-02', NO_HOLIDAYS)).toBe(0);
  });

  it('excludes both bounds', () => {
    expect(schoolDaysBetween('2026-11-01', '2026-11-03', NO_HOLIDAYS)).toBe(1);
    expect(schoolDaysBetween('2026-11-01', '2026-11-05', NO_HOLIDAYS)).toBe(3);
  });

  it('skips Fridays and Saturdays', () => {
    // Thursday -> Sunday: only Friday and Saturday in between.
    expect(schoolDaysBetween('2026-11-05', '2026-11-08', NO_HOLIDAYS)).toBe(0);
    // Sunday -> next Sunday: Mon..Thu.
    expect(schoolDaysBetween('2026-11-01', '2026-11-08', NO_HOLIDAYS)).toBe(4);
    // Sunday -> Tuesday a week later: Mon..Thu + Sun, Mon.
    expect(schoolDaysBetween('2026-11-01', '2026-11-10', NO_HOLIDAYS)).toBe(6);
  });

  it('skips holidays, without double-counting a holiday that falls on a weekend', () => {
    const holidays = new Set(['2026-11-03', '2026-11-06']); // a Tuesday and a Friday
    expect(schoolDaysBetween('2026-11-01', '2026-11-08', holidays)).toBe(3);
    // A holiday week makes a two-week span count only its first week.
    const holidayWeek = new Set(['2026-11-08', '2026-11-09', '2026-11-10', '2026-11-11', '2026-11-12']);
    expect(schoolDaysBetween('2026-11-01', '2026-11-15', NO_HOLIDAYS)).toBe(9);
    expect(schoolDaysBetween('2026-11-01', '2026-11-15', holidayWeek)).toBe(4);
  });

  it('ignores holidays on the bounds, outside the range, or malformed', () => {
    const holidays = new Set(['2026-11-01', '2026-11-05', '2026-10-29', '2026-11-30', 'not-a-day']);
    expect(schoolDaysBetween('2026-11-01', '2026-11-05', holidays)).toBe(3);
  });

  it('spans months, leap days and years', () => {
    // 2024-02-28 (Wed) -> 2024-03-03 (Sun): Thu 29 Feb, (Fri 1, Sat 2 Mar).
    expect(schoolDaysBetween('2024-02-28', '2024-03-03', NO_HOLIDAYS)).toBe(1);
    // 2026-01-01 -> 2028-01-01 exclusive: exactly 104 weeks + one Friday => 104 * 5.
    expect(schoolDaysBetween('2026-01-01', '2028-01-01', NO_HOLIDAYS)).toBe(520);
    expect(schoolDaysBetween('2020-01-01', '2030-01-01', NO_HOLIDAYS)).toBe(2608);
  });

  it('agrees with a naive weekday count on many spans', () => {
    const naive = (from: string, to: string, holidays: ReadonlySet<string>): number => {
      let count = 0;
      for (let t = Date.parse(`${from}T00:00:00Z`) + 86_400_000; t < Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
        const d = new Date(t);
        const weekday = d.getUTCDay();
        if (weekday !== 5 && weekday !== 6 && !holidays.has(d.toISOString().slice(0, 10))) count++;
      }
      return count;
    };
    const holidays = new Set(['2026-03-10', '2026-03-11', '2026-04-02', '2026-05-01', '2026-05-25']);
    const base = toEpochDay('2026-02-20');
    for (let a = 0; a < 60; a += 3) {
      for (let b = a; b < a + 80; b += 7) {
        const from = fromEpochDay(base + a);
        const to = fromEpochDay(base + b);
        expect(schoolDaysBetween(from, to, holidays), `${from}..${to}`).toBe(naive(from, to, holidays));
      }
    }
  });

  it('rejects malformed bounds', () => {
    expect(() => schoolDaysBetween('2026-11-01', '2026-02-30', NO_HOLIDAYS)).toThrow(RangeError);
    expect(() => schoolDaysBetween('yesterday', '2026-11-05', NO_HOLIDAYS)).toThrow(RangeError);
  });
});
