import type { Sql } from '@qiraa/db';
import type { ScheduleOutcome, ScheduleTick } from '@qiraa/kernel';

/** A claim not completed within this long is taken to be dead (its process crashed mid-run). */
const LEASE_SECONDS = 600;

/**
 * Claims a tick for this process: the first insert wins; a failed run, or one whose claim outlived the lease,
 * is taken over by one of the processes that look again (the update's row lock decides which).
 */
export async function claimTick(sql: Sql, tick: ScheduleTick, claimedBy: string): Promise<boolean> {
  const rows = await sql`
    insert into schedule_runs as r (schedule, tick, due_at, claimed_by)
    values (${tick.schedule}, ${tick.key}, ${tick.dueAt}, ${claimedBy})
    on conflict (schedule, tick) do update
      set claimed_by = excluded.claimed_by, claimed_at = now(), attempts = r.attempts + 1, error = null
      where r.completed_at is null
        and (r.error is not null or r.claimed_at < now() - make_interval(secs => ${LEASE_SECONDS}))
    returning 1`;
  return rows.length === 1;
}

export async function completeTick(sql: Sql, tick: ScheduleTick, outcome: ScheduleOutcome): Promise<void> {
  await sql`
    update schedule_runs set completed_at = now(), outcome = ${sql.json(outcome as never)}, error = null
    where schedule = ${tick.schedule} and tick = ${tick.key}`;
}

export async function failTick(sql: Sql, tick: ScheduleTick, error: Error): Promise<void> {
  await sql`
    update schedule_runs set error = ${error.message.slice(0, 500)}
    where schedule = ${tick.schedule} and tick = ${tick.key}`;
}

export interface ScheduleRunRow {
  schedule: string;
  tick: string;
  due_at: Date;
  completed_at: Date | null;
  outcome: ScheduleOutcome | null;
  error: string | null;
  attempts: number;
}

/** The newest run of each schedule (by due tick). */
export async function lastRuns(sql: Sql): Promise<Map<string, ScheduleRunRow>> {
  const rows = await sql<ScheduleRunRow[]>`
    select distinct on (schedule) schedule, tick, due_at, completed_at, outcome, error, attempts
    from schedule_runs order by schedule, due_at desc, tick desc`;
  return new Map(rows.map((r) => [r.schedule, r]));
}
