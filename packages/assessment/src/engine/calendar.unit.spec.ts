import { describe, expect, it } from 'vitest';
import { checkCalendar, defaultCalendar, defaultWindowOn, windowOn } from './calendar';

describe('screening window calendar', () => {
  const year = '2026-2027';
  const calendar = defaultCalendar(year);

  it('has a default calendar that passes its own checks', () => {
    expect(calendar.map((w) => w.window)).toEqual(['BOY', 'MOY', 'EOY']);
    expect(checkCalendar(year, calendar)).toEqual([]);
  });

  it('finds the window holding a day, inclusive of both ends, and none between windows', () => {
    expect(windowOn(calendar, '2026-09-01')).toBe('BOY');
    expect(windowOn(calendar, '2026-10-15')).toBe('BOY');
    expect(windowOn(calendar, '2026-11-20')).toBeNull();
    expect(windowOn(calendar, '2027-05-31')).toBe('EOY');
  });

  it('defaults to the open window, else the last started, else BOY', () => {
    expect(defaultWindowOn(calendar, '2027-01-10')).toBe('MOY');
    expect(defaultWindowOn(calendar, '2026-11-20')).toBe('BOY');
    expect(defaultWindowOn(calendar, '2027-03-01')).toBe('MOY');
    expect(defaultWindowOn(calendar, '2026-08-15')).toBe('BOY');
  });

  it('names every problem of a bad calendar', () => {
    const problems = checkCalendar(year, [
      { window: 'BOY', startsOn: '2026-10-01', endsOn: '2026-09-01' },
      { window: 'MOY', startsOn: '2026-09-15', endsOn: '2027-08-15' },
    ]);
    expect(problems).toEqual([
      { code: 'ends_before_start', window: 'BOY' },
      { code: 'outside_academic_year', window: 'MOY' },
      { code: 'windows_overlap_or_out_of_order', window: 'MOY' },
      { code: 'window_missing', window: 'EOY' },
    ]);
  });

  it('names a window given twice', () => {
    const calendar = defaultCalendar(year);
    expect(checkCalendar(year, [...calendar, calendar[1]!])).toEqual([{ code: 'window_repeated', window: 'MOY' }]);
  });
});
