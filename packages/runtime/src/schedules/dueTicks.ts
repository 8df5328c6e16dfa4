import { addDays, localInstant as instantOf, type Schedule, type ScheduleTick, wallClockIn } from '@qiraa/kernel';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Friday and Saturday are the weekend (docs/gamification.md); holidays are each organization's, checked by the run. */
export const isWeekday = (day: string) => ![5, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());

/** The latest school day of `timeZone` whose end (`endHour` local) is at or before `now`. */
function lastEndedSchoolDay(now: Date, timeZone: string, endHour: number): string {
  const wall = wallClockIn(now, timeZone);
  let day = wall.hour >= endHour ? wall.day : addDays(wall.day, -1);
  while (!isWeekday(day)) day = addDays(day, -1);
  return day;
}

function nextSchoolDayEnd(now: Date, timeZone: string, endHour: number): Date {
  let day = lastEndedSchoolDay(now, timeZone, endHour);
  do day = addDays(day, 1);
  while (!isWeekday(day));
  return instantOf(day, endHour, timeZone);
}

export interface TickContext {
  now: Date;
  /** The distinct time zones of the organizations (for `school_day_end`). */
  timeZones: readonly string[];
  schoolDayEndHour: number;
}

/**
 * The latest tick of a schedule that is due at `now` (one per time zone for `school_day_end`). Older missed ticks
 * are not listed: runs are idempotent over the whole state, so the latest one does what the missed ones would.
 */
export function latestTicks(schedule: Schedule, at: TickContext): ScheduleTick[] {
  const base = { schedule: schedule.name, timeZone: null, schoolDay: null };
  const t = at.now.getTime();
  switch (schedule.cadence) {
    case 'hourly': {
      const dueAt = new Date(Math.floor(t / HOUR_MS) * HOUR_MS);
      return [{ ...base, key: dueAt.toISOString().slice(0, 13), dueAt }];
    }
    case 'daily': {
      const dueAt = new Date(Math.floor(t / DAY_MS) * DAY_MS);
      return [{ ...base, key: dueAt.toISOString().slice(0, 10), dueAt }];
    }
    case 'school_day_end':
      return at.timeZones.map((timeZone) => {
        const schoolDay = lastEndedSchoolDay(at.now, timeZone, at.schoolDayEndHour);
        return {
          ...base,
          key: `${timeZone} ${schoolDay}`,
          dueAt: instantOf(schoolDay, at.schoolDayEndHour, timeZone),
          timeZone,
          schoolDay,
        };
      });
  }
}

/** When the schedule is next due after `now` (the earliest time zone for `school_day_end`; null with none). */
export function nextDue(schedule: Schedule, at: TickContext): Date | null {
  const t = at.now.getTime();
  switch (schedule.cadence) {
    case 'hourly':
      return new Date((Math.floor(t / HOUR_MS) + 1) * HOUR_MS);
    case 'daily':
      return new Date((Math.floor(t / DAY_MS) + 1) * DAY_MS);
    case 'school_day_end': {
      const all = at.timeZones.map((z) => nextSchoolDayEnd(at.now, z, at.schoolDayEndHour).getTime());
      return all.length === 0 ? null : new Date(Math.min(...all));
    }
  }
}
