/**
 * School-day arithmetic for the gamification streak rules. Pure: no I/O, no clock, no dependencies.
 *
 * A "day" is a calendar date string `YYYY-MM-DD`. Once a timestamp has been turned into a day (in the
 * organization's time zone, see `schoolDayOf`), every other function here works on the date string alone and is
 * zone-free: weekdays and day differences are computed as if the date were a UTC midnight.
 */

/** The time zone used when an organization has not configured one. */
export const DEFAULT_TIME_ZONE = 'Asia/Amman';

const MS_PER_DAY = 86_400_000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Sunday = 0 … Saturday = 6 (as `Date#getUTCDay`). Friday and Saturday are the weekend in Jordan/Palestine. */
const WEEKEND_DAYS: ReadonlySet<number> = new Set([5, 6]);

/** Whether `day` is a real calendar date written `YYYY-MM-DD` (so `2026-02-30` is not). */
export function isSchoolDayString(day: string): boolean {
  return epochDayOrNull(day) !== null;
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date; throws a `RangeError` for anything else. */
export function toEpochDay(day: string): number {
  const epochDay = epochDayOrNull(day);
  if (epochDay === null) throw new RangeError(`not a YYYY-MM-DD calendar date: ${JSON.stringify(day)}`);
  return epochDay;
}

/** The `YYYY-MM-DD` date that is `epochDay` days after 1970-01-01. */
export function fromEpochDay(epochDay: number): string {
  return new Date(epochDay * MS_PER_DAY).toISOString().slice(0, 10);
}

function epochDayOrNull(day: string): number | null {
  const match = DAY_PATTERN.exec(day);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const date = Number(match[3]);
  const ms = Date.UTC(year, month - 1, date);
  const check = new Date(ms);
  // Date.UTC rolls 2026-02-30 over to 2026-03-02 and maps years 0-99 to 1900-1999: reject both.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) return null;
  return ms / MS_PER_DAY;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // Throws a RangeError for an unknown time zone, which is what we want.
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * The calendar day (`YYYY-MM-DD`) on which the instant `occurredAt` falls in `timeZone` (an IANA zone such as
 * `Asia/Amman`). Uses the zone's real offset at that instant (so historical offset changes are honoured).
 * Throws a `RangeError` for an unparseable timestamp or an unknown time zone.
 */
export function schoolDayOf(occurredAt: string | Date, timeZone: string): string {
  const instant = occurredAt instanceof Date ? occurredAt : new Date(occurredAt);
  if (Number.isNaN(instant.getTime())) throw new RangeError(`not a valid timestamp: ${JSON.stringify(occurredAt)}`);
  // en-CA formats as YYYY-MM-DD; read the parts rather than the formatted string so an ICU locale-data change
  // cannot alter the output.
  let year = '';
  let month = '';
  let day = '';
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type === 'year') year = part.value;
    else if (part.type === 'month') month = part.value;
    else if (part.type === 'day') day = part.value;
  }
  const result = `${year.padStart(4, '0')}-${month}-${day}`;
  if (!isSchoolDayString(result)) throw new RangeError(`cannot express ${instant.toISOString()} as YYYY-MM-DD`);
  return result;
}

/** What the streak needs from a mastery event. */
export interface SchoolDayEvent {
  /** ISO-8601 timestamp of the event. */
  readonly occurredAt: string | Date;
  /** Explicit school day from the engine (`YYYY-MM-DD`); when present it wins over `occurredAt`. */
  readonly schoolDay?: string | null | undefined;
}

/**
 * The school day a mastery event counts for: its explicit `schoolDay` when present (validated), otherwise the
 * day of `occurredAt` in `timeZone` (default `Asia/Amman`).
 */
export function schoolDayOfEvent(event: SchoolDayEvent, timeZone: string = DEFAULT_TIME_ZONE): string {
  if (event.schoolDay !== undefined && event.schoolDay !== null) {
    toEpochDay(event.schoolDay);
    return event.schoolDay;
  }
  return schoolDayOf(event.occurredAt, timeZone);
}

/**
 * Whether `day` is a Friday or a Saturday. The weekday comes from the date string alone (as a UTC date), so the
 * answer does not depend on any time zone. Throws a `RangeError` for a malformed day.
 */
export function isWeekend(day: string): boolean {
  return isWeekendEpochDay(toEpochDay(day));
}

function isWeekendEpochDay(epochDay: number): boolean {
  // 1970-01-01 was a Thursday (4).
  const weekday = (((epochDay + 4) % 7) + 7) % 7;
  return WEEKEND_DAYS.has(weekday);
}

/**
 * The number of school days (neither Friday/Saturday nor in `holidays`) strictly between `fromExclusive` and
 * `toExclusive`. Zero when `toExclusive <= fromExclusive` or the days are adjacent. Walks the days one by one
 * (O(days)): a gap of ten years is ~3,650 steps, which is fine. Holidays that are not valid `YYYY-MM-DD` dates
 * simply never match. Throws a `RangeError` if either bound is malformed.
 */
export function schoolDaysBetween(fromExclusive: string, toExclusive: string, holidays: ReadonlySet<string>): number {
  const from = toEpochDay(fromExclusive);
  const to = toEpochDay(toExclusive);
  let count = 0;
  for (let d = from + 1; d < to; d++) {
    if (isWeekendEpochDay(d)) continue;
    if (holidays.size > 0 && holidays.has(fromEpochDay(d))) continue;
    count++;
  }
  return count;
}
