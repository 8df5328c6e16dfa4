import { hostname } from 'node:os';
import type { Sql } from '@qiraa/db';
import { withWriteContext } from '@qiraa/eventstore';
import { activeTimeZones } from '@qiraa/identity';
import type { Clock, ContextDeps, Schedule, ScheduleOutcome, ScheduleTick, ScheduleTrigger } from '@qiraa/kernel';
import { type BullmqTicks, bullmqTicks } from './bullmqTicks';
import { latestTicks, nextDue, type TickContext } from './dueTicks';
import { claimTick, completeTick, failTick, lastRuns } from './scheduleLedger';

export interface TickRun {
  tick: ScheduleTick;
  outcome: ScheduleOutcome | null;
  error: string | null;
}

export interface ScheduleStatus {
  name: string;
  cadence: Schedule['cadence'];
  description: string;
  lastTick: string | null;
  lastDueAt: Date | null;
  lastCompletedAt: Date | null;
  lastOutcome: ScheduleOutcome | null;
  lastError: string | null;
  nextDueAt: Date | null;
}

export interface Scheduler extends ScheduleTrigger {
  readonly mode: 'in-process' | 'bullmq';
  readonly schedules: readonly Schedule[];
  /** Claims and runs every due tick not yet run (all schedules, or the one named); what this process ran. */
  runDue(name?: string): Promise<TickRun[]>;
  status(): Promise<ScheduleStatus[]>;
  /** Catches up at once (a missed tick runs within seconds of start), then the timer or the BullMQ job schedulers. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface SchedulerOptions {
  sql: Sql;
  /** Late-bound: the deps the runs get carry this scheduler as their `schedules` trigger. */
  deps: () => ContextDeps;
  clock: Clock;
  schedules: readonly Schedule[];
  schoolDayEndHour: number;
  pollMs: number;
  redis?: { url: string; prefix: string };
  log?: (line: string) => void;
  /** Who claims in the ledger (default host:pid). */
  instance?: string;
}

async function timeZonesOf(sql: Sql): Promise<string[]> {
  return activeTimeZones(sql);
}

/**
 * Runs the contexts' schedules once per due tick across any number of processes (docs/architecture.md,
 * "Schedules"). What is due is computed from the injected clock; the PostgreSQL ledger (`schedule_runs`) decides
 * who runs it; the trigger is an in-process timer, or BullMQ job schedulers (cron pattern and time zone) with Redis.
 */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const { sql, clock, schedules } = options;
  const instance = options.instance ?? `${hostname()}:${process.pid}`;
  const byName = new Map(schedules.map((s) => [s.name, s]));
  let queue: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let bullmq: BullmqTicks | undefined;
  let stopped = false;

  const tickContext = async (): Promise<TickContext> => ({
    now: clock.now(),
    timeZones: schedules.some((s) => s.cadence === 'school_day_end') ? await timeZonesOf(sql) : [],
    schoolDayEndHour: options.schoolDayEndHour,
  });

  async function runTick(schedule: Schedule, tick: ScheduleTick): Promise<TickRun | null> {
    if (!(await claimTick(sql, tick, instance))) return null;
    try {
      // Its events name the schedule as their actor and the tick as their correlation (docs/auditing.md).
      const cause = `schedule:${schedule.name}:${tick.key}`;
      const outcome = await withWriteContext(
        { systemActor: `schedule:${schedule.name}`, organizationId: null, correlationId: cause, causationId: cause },
        () => schedule.run(options.deps(), tick),
      );
      await completeTick(sql, tick, outcome);
      return { tick, outcome, error: null };
    } catch (error) {
      // Left claimed with its error: the next look (timer, job or restart) runs it again.
      await failTick(sql, tick, error as Error).catch(() => {});
      options.log?.(`schedule ${schedule.name} ${tick.key} failed: ${(error as Error).message}`);
      return { tick, outcome: null, error: (error as Error).message };
    }
  }

  async function due(name?: string): Promise<TickRun[]> {
    const chosen = name === undefined ? schedules : [byName.get(name)].filter((s) => s !== undefined);
    const at = await tickContext();
    const runs: TickRun[] = [];
    for (const schedule of chosen) {
      for (const tick of latestTicks(schedule, at)) {
        const run = await runTick(schedule, tick);
        if (run) runs.push(run);
      }
    }
    return runs;
  }

  // One look at a time per process: a timer firing during a slow run queues behind it.
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => {});
    return next;
  };

  const scheduler: Scheduler = {
    mode: options.redis ? 'bullmq' : 'in-process',
    schedules,
    runDue: (name) => serial(() => due(name)),
    async runNow(name) {
      const schedule = byName.get(name);
      if (!schedule) return null;
      const now = clock.now();
      // Outside the ledger: an extra run of an idempotent rule, at the caller's moment.
      return serial(() =>
        schedule.run(options.deps(), {
          schedule: name,
          key: `now ${now.toISOString()}`,
          dueAt: now,
          timeZone: null,
          schoolDay: null,
        }),
      );
    },
    async status() {
      const [runs, at] = await Promise.all([lastRuns(sql), tickContext()]);
      return schedules.map((s) => {
        const last = runs.get(s.name);
        return {
          name: s.name,
          cadence: s.cadence,
          description: s.description,
          lastTick: last?.tick ?? null,
          lastDueAt: last?.due_at ?? null,
          lastCompletedAt: last?.completed_at ?? null,
          lastOutcome: last?.outcome ?? null,
          lastError: last?.error ?? null,
          nextDueAt: nextDue(s, at),
        };
      });
    },
    async start() {
      if (schedules.length === 0) return;
      const look = () => {
        if (stopped) return;
        scheduler.runDue().catch((error) => options.log?.(`schedules: ${(error as Error).message}`));
      };
      if (options.redis) {
        bullmq = bullmqTicks(scheduler, {
          ...options.redis,
          timeZones: await timeZonesOf(sql),
          schoolDayEndHour: options.schoolDayEndHour,
          log: options.log,
        });
        await bullmq.start();
      } else {
        timer = setInterval(look, options.pollMs);
        timer.unref();
      }
      look();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await bullmq?.close();
      await queue;
    },
  };
  return scheduler;
}
