import { describe, expect, it } from 'vitest';
import { isCalendarDay, isDateTime } from './formats';
import { compileBodyValidator } from './validatorCompiler';

describe('isDateTime', () => {
  it.each([
    '2026-11-01T08:00:00Z',
    '2026-11-01t08:00:00z',
    '2026-11-01T08:00:00.123456Z',
    '2026-11-01T08:00:00+03:00',
    '2024-02-29T23:59:59-14:00',
    '1000-01-02T00:00:00Z',
    '9999-12-30T23:59:59.999Z',
  ])('accepts %s', (value) => {
    expect(isDateTime(value)).toBe(true);
    expect(Number.isNaN(new Date(value).getTime())).toBe(false);
  });

  it.each([
    ['a leap second', '2026-06-30T23:59:60Z'],
    ['year 0000', '0000-01-01T00:00:00Z'],
    ['a year Date.UTC maps to the 1900s', '0050-06-01T00:00:00Z'],
    ['a day that is a year below 1000 west of UTC', '1000-01-01T05:00:00Z'],
    ['a day that is year 10000 east of UTC', '9999-12-31T12:00:00Z'],
    ['an impossible day', '2026-02-29T00:00:00Z'],
    ['month 13', '2026-13-01T00:00:00Z'],
    ['hour 24', '2026-11-01T24:00:00Z'],
    ['minute 60', '2026-11-01T08:60:00Z'],
    ['no offset', '2026-11-01T08:00:00'],
    ['an offset without minutes', '2026-11-01T08:00:00+03'],
    ['offset minutes over 59', '2026-11-01T08:00:00+03:60'],
    ['a date only', '2026-11-01'],
    ['a space for T', '2026-11-01 08:00:00Z'],
    ['trailing text', '2026-11-01T08:00:00Zx'],
  ])('refuses %s (%s)', (_why, value) => {
    expect(isDateTime(value)).toBe(false);
  });
});

describe('isCalendarDay', () => {
  it.each(['2026-11-01', '2024-02-29', '2000-02-29', '1000-01-01', '9999-12-31'])('accepts %s', (day) => {
    expect(isCalendarDay(day)).toBe(true);
  });

  it.each([
    '2026-13-45',
    '2026-02-29',
    '1900-02-29',
    '2026-04-31',
    '2026-00-10',
    '2026-01-00',
    '0000-01-01',
    '0999-12-31',
    '2026-1-5',
    '20261101',
  ])('refuses %s', (day) => {
    expect(isCalendarDay(day)).toBe(false);
  });
});

describe('the validator uses these formats for date-time and date', () => {
  const validate = compileBodyValidator({
    type: 'object',
    properties: { at: { type: 'string', format: 'date-time' }, day: { type: 'string', format: 'date' } },
  });

  it('refuses what ajv-formats would let through', () => {
    expect(validate({ at: '2026-06-30T23:59:60Z', day: '2026-02-30' })).toEqual({
      ok: false,
      details: [
        { field: 'at', issue: 'must match format "date-time"' },
        { field: 'day', issue: 'must match format "date"' },
      ],
    });
    expect(validate({ at: '2026-06-30T23:59:59Z', day: '2026-02-28' })).toEqual({ ok: true });
  });
});
