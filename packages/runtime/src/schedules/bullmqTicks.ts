import type { Schedule } from '@qiraa/kernel';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';

export const SCHEDULE_QUEUE = 'qiraa-schedules';
const JOB_OPTS = { removeOnComplete: true, removeOnFail: 100 };

export interface BullmqTicks {
  readonly queue: Queue;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The job schedulers of a schedule: its id, cron pattern and time zone (one per organization zone for `school_day_end`). */
export function jobSchedulersOf(
  schedule: Schedule,
  timeZones: readonly string[],
  schoolDayEndHour: number,
): { id: string; pattern: string; tz: string }[] {
  switch (schedule.cadence) {
    case 'hourly':
      return [{ id: schedule.name, pattern: '0 * * * *', tz: 'UTC' }];
    case 'daily':
      return [{ id: schedule.name, pattern: '0 0 * * *', tz: 'UTC' }];
    case 'school_day_end':
      // Sunday to Thursday: the school week; holidays are each organization's and checked by the run.
      return timeZones.map((tz) => ({ id: `${schedule.name}@${tz}`, pattern: `0 ${schoolDayEndHour} * * 0-4`, tz }));
  }
}

/**
 * With Redis, BullMQ job schedulers (`upsertJobScheduler` with a cron `pattern` and `tz`) fire the ticks: one job
 * per tick whatever the number of processes, taken by one of them. The job carries only the schedule's name; the
 * worker asks the scheduler what is due by the injected clock and the ledger decides, so a duplicated or lost
 * job is harmless: an hourly sweep job runs every schedule's due ticks (a time zone added since start, a tick
 * fired while Redis was away).
 */
export function bullmqTicks(
  scheduler: { readonly schedules: readonly Schedule[]; runDue(name?: string): Promise<unknown> },
  options: {
    url: string;
    prefix: string;
    timeZones: readonly string[];
    schoolDayEndHour: number;
    log?: (line: string) => void;
  },
): BullmqTicks {
  const report = (error: Error) => options.log?.(`schedules queue: ${error.message}`);
  const producer = new Redis(options.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  producer.on('error', report);
  const consumer = new Redis(options.url, { maxRetriesPerRequest: null });
  consumer.on('error', report);
  const queue = new Queue(SCHEDULE_QUEUE, { connection: producer, prefix: options.prefix });
  queue.on('error', report);
  let worker: Worker<{ schedule?: string }> | undefined;
  return {
    queue,
    async start() {
      await queue.waitUntilReady();
      for (const schedule of scheduler.schedules) {
        for (const s of jobSchedulersOf(schedule, options.timeZones, options.schoolDayEndHour)) {
          await queue.upsertJobScheduler(
            s.id,
            { pattern: s.pattern, tz: s.tz },
            { name: 'tick', data: { schedule: schedule.name }, opts: JOB_OPTS },
          );
        }
      }
      await queue.upsertJobScheduler(
        'schedules-sweep',
        { pattern: '30 * * * *', tz: 'UTC' },
        { name: 'sweep', data: {}, opts: JOB_OPTS },
      );
      worker = new Worker<{ schedule?: string }>(
        SCHEDULE_QUEUE,
        async (job) => {
          const name = job.data.schedule;
          const runs = await scheduler.runDue(job.name === 'sweep' ? undefined : name);
          return { ran: (runs as unknown[]).length };
        },
        { connection: consumer, prefix: options.prefix, concurrency: 1 },
      );
      worker.on('error', report);
    },
    async close() {
      await worker?.close();
      await queue.close();
      producer.disconnect();
      consumer.disconnect();
    },
  };
}
