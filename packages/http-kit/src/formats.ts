import type { Ajv } from 'ajv';

/**
 * The API's own `date-time` and `date` formats. ajv-formats accepts values that `Date`, PostgreSQL or the
 * school-day arithmetic then refuse (a leap second `23:59:60`, year `0000`, years 1-99 that `Date.UTC` maps to
 * the 1900s); these accept only what all of them hold: the years 1000 to 9999.
 */
export const FIRST_YEAR = 1000;
export const LAST_YEAR = 9999;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 `date-time`: `T` between date and time, an offset of `Z` or `±hh:mm`.
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

// An instant a day inside the range, so its calendar day in every time zone (±14 h) is inside it too: an event's
// school day is taken in its organization's zone.
const FIRST_MS = Date.parse(`${FIRST_YEAR}-01-02T00:00:00.000Z`);
const LAST_MS = Date.parse(`${LAST_YEAR}-12-30T23:59:59.999Z`);

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** `YYYY-MM-DD` naming a real calendar day of the years 1000 to 9999 (so not `2026-02-29` or `2026-13-45`). */
export function isCalendarDay(value: string): boolean {
  const match = DAY.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < FIRST_YEAR || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] as number));
}

/**
 * An RFC 3339 date-time with an offset, on a real calendar day, with no leap second (`Date` cannot hold one),
 * from 1000-01-02T00:00:00Z to 9999-12-30T23:59:59.999Z.
 */
export function isDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (!match) return false;
  const [, day, hour, minute, second, offsetHour, offsetMinute] = match;
  if (!isCalendarDay(day as string)) return false;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return false;
  if (offsetHour !== undefined && (Number(offsetHour) > 23 || Number(offsetMinute) > 59)) return false;
  const ms = Date.parse(value.toUpperCase());
  return ms >= FIRST_MS && ms <= LAST_MS;
}

/** Replaces ajv-formats' `date-time` and `date` in `ajv` with the API's own. */
export function installFormats(ajv: Ajv): Ajv {
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  ajv.addFormat('date', { type: 'string', validate: isCalendarDay });
  return ajv;
}
