import type { ContextDeps } from './index';

/**
 * When a schedule is due (docs/architecture.md, "Schedules"):
 * - `hourly`: at the top of every UTC hour;
 * - `daily`: at 00:00 UTC every day;
 * - `school_day_end`: every school day (not a Friday or Saturday, not one of the organization's holidays) at the
 *   end of the school day in each organization's time zone (`SCHOOL_DAY_END_HOUR`, default 20:00 local).
 */
export type ScheduleCadence = 'hourly' | 'daily' | 'school_day_end';

/** One due run of a schedule: the ledger's key, the instant it fell due, and for `school_day_end` where. */
export interface ScheduleTick {
  readonly schedule: string;
  /** The ledger key: `2026-11-27T14` (hourly), `2026-11-27` (daily), `Asia/Amman 2026-11-27` (school_day_end). */
  readonly key: string;
  readonly dueAt: Date;
  /** `school_day_end` only: the time zone and the local school day that ended. */
  readonly timeZone: string | null;
  readonly schoolDay: string | null;
}

/** What one run did, counted per effect (`{ endedDays: 3 }`); stored in the ledger and shown by `qiraa schedules status`. */
export type ScheduleOutcome = Readonly<Record<string, number>>;

/**
 * A rule that waits for time. It runs once per due tick across every process (a PostgreSQL ledger of runs),
 * and after downtime only the latest missed tick runs: a run must be idempotent over the whole state ("end
 * every open day of a school day that has ended"), never "what happened since the previous run".
 */
export interface Schedule {
  readonly name: string;
  readonly cadence: ScheduleCadence;
  /** One line for `qiraa schedules status` and the docs' table. */
  readonly description: string;
  run(deps: ContextDeps, tick: ScheduleTick): Promise<ScheduleOutcome>;
}

/** Runs a schedule now, outside its ticks (a window closed by hand ends its training days at once). */
export interface ScheduleTrigger {
  runNow(name: string): Promise<ScheduleOutcome | null>;
}

export function defineSchedule(schedule: Schedule): Schedule {
  return schedule;
}
