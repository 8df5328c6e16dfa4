import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { defineContext, defineSchedule, manualClock, type ScheduleTick } from '@qiraa/kernel';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { openRuntime } from '../openRuntime';
import { SCHEDULE_QUEUE } from './bullmqTicks';

const redisUrl = process.env.TEST_REDIS_URL;
const SECRET = 'qiraa-test-secret-0123456789abcdef0123456789';

/** Every run of the test schedules, across both runtimes of this process. */
const runs: ScheduleTick[] = [];
let failNext = false;
const slow = (ms: number) => new Promise((r) => setTimeout(r, ms));

const testContext = defineContext({
  name: 'schedule-test',
  projections: [],
  schedules: [
    defineSchedule({
      name: 'test.hourly',
      cadence: 'hourly',
      description: 'counts',
      async run(_deps, tick) {
        await slow(50); // long enough for the other runtime to try the same tick meanwhile
        runs.push(tick);
        return { ran: 1 };
      },
    }),
    defineSchedule({
      name: 'test.end-of-day',
      cadence: 'school_day_end',
      description: 'counts',
      async run(_deps, tick) {
        if (failNext) {
          failNext = false;
          throw new Error('transient');
        }
        runs.push(tick);
        return { ran: 1 };
      },
    }),
  ],
});

describe('schedules: once across processes, catch-up after downtime', () => {
  let db: TestDatabase;
  const clock = manualClock(new Date('2026-11-26T10:00:00Z')); // Thursday, 13:00 in Amman
  const open = (env: NodeJS.ProcessEnv = {}) =>
    openRuntime(loadConfig({ DATABASE_URL: db.url, NODE_ENV: 'test', JWT_SECRET: SECRET, ...env }), {
      role: 'api',
      contexts: [testContext],
      clock,
    });
  const ledger = () =>
    db.sql<{ schedule: string; tick: string; attempts: number; completed: boolean; error: string | null }[]>`
      select schedule, tick, attempts, completed_at is not null as completed, error from schedule_runs
      order by schedule, due_at`;

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.sql`
      insert into organizations (id, name, slug, country, default_locale, time_zone)
      values ('org_s', 'S', 'sched-s', 'JO', 'ar', 'Asia/Amman')`;
  });
  afterAll(() => db.drop());
  beforeEach(async () => {
    runs.length = 0;
    await db.sql`delete from schedule_runs`;
  });

  it('two runtimes on one database run each due tick once', async () => {
    const [a, b] = [await open(), await open()];
    try {
      const [ra, rb] = await Promise.all([a.scheduler.runDue(), b.scheduler.runDue()]);
      expect(runs.map((r) => r.key).sort()).toEqual(['2026-11-26T10', 'Asia/Amman 2026-11-25']);
      expect(ra.length + rb.length).toBe(2);
      // Again at the same moment: nothing is due that has not run.
      await Promise.all([a.scheduler.runDue(), b.scheduler.runDue()]);
      expect(runs).toHaveLength(2);
      expect((await ledger()).every((r) => r.completed && r.attempts === 1)).toBe(true);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('after downtime the latest missed tick runs within seconds of start, the older ones not again', async () => {
    const first = await open();
    await first.scheduler.runDue();
    await first.close();
    runs.length = 0;
    // Down from Thursday 13:00 to Sunday 21:30 Amman: Thursday's and Sunday's school-day ends were missed.
    clock.set(new Date('2026-11-29T18:30:00Z'));
    const started = Date.now();
    const again = await open({ SCHEDULE_POLL_MS: '60000' });
    try {
      await again.scheduler.start();
      while (runs.length < 2 && Date.now() - started < 10_000) await slow(20);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(runs.map((r) => r.key).sort()).toEqual(['2026-11-29T18', 'Asia/Amman 2026-11-29']);
      const status = await again.scheduler.status();
      const endOfDay = status.find((s) => s.name === 'test.end-of-day')!;
      expect(endOfDay.lastTick).toBe('Asia/Amman 2026-11-29');
      expect(endOfDay.nextDueAt).toEqual(new Date('2026-11-30T17:00:00Z'));
    } finally {
      await again.close();
      clock.set(new Date('2026-11-26T10:00:00Z'));
    }
  });

  it('a failed run stays in the ledger with its error and runs again at the next look', async () => {
    const rt = await open();
    try {
      failNext = true;
      const firstLook = await rt.scheduler.runDue('test.end-of-day');
      expect(firstLook[0]!.error).toBe('transient');
      expect((await ledger())[0]).toMatchObject({ completed: false, error: 'transient' });
      await rt.scheduler.runDue('test.end-of-day');
      expect(runs.map((r) => r.key)).toEqual(['Asia/Amman 2026-11-25']);
      expect((await ledger())[0]).toMatchObject({ completed: true, attempts: 2, error: null });
    } finally {
      await rt.close();
    }
  });

  it.skipIf(!redisUrl)(
    'with Redis: job schedulers with cron pattern and time zone; two processes run a tick once',
    async () => {
      const prefix = `qiraa-test-sched-${process.pid}-${Date.now()}`;
      const env = { REDIS_URL: redisUrl!, QUEUE_PREFIX: prefix };
      const [a, b] = [await open(env), await open(env)];
      const queue = new Queue(SCHEDULE_QUEUE, { connection: { url: redisUrl! }, prefix });
      try {
        expect(a.scheduler.mode).toBe('bullmq');
        await Promise.all([a.scheduler.start(), b.scheduler.start()]);
        const schedulers = await queue.getJobSchedulers();
        expect(schedulers.map((s) => [s.key, s.pattern, s.tz]).sort()).toEqual([
          ['schedules-sweep', '30 * * * *', 'UTC'],
          ['test.end-of-day@Asia/Amman', '0 20 * * 0-4', 'Asia/Amman'],
          ['test.hourly', '0 * * * *', 'UTC'],
        ]);
        // The start-up catch-up ran the due ticks once between the two processes.
        const deadline = Date.now() + 10_000;
        while (runs.length < 2 && Date.now() < deadline) await slow(20);
        expect(runs.map((r) => r.key).sort()).toEqual(['2026-11-26T10', 'Asia/Amman 2026-11-25']);
        // An hour later the tick fires (as the job scheduler would) in both processes' queue at once: one run.
        clock.advance(3_600_000);
        await Promise.all([
          queue.add('tick', { schedule: 'test.hourly' }),
          queue.add('tick', { schedule: 'test.hourly' }),
          queue.add('tick', { schedule: 'test.hourly' }),
        ]);
        while (runs.length < 3 && Date.now() < deadline + 10_000) await slow(20);
        await slow(300);
        expect(runs.map((r) => r.key).sort()).toEqual(['2026-11-26T10', '2026-11-26T11', 'Asia/Amman 2026-11-25']);
        expect(await queue.getJobCounts('completed', 'failed', 'active', 'wait')).toMatchObject({ failed: 0 });
      } finally {
        await queue.obliterate({ force: true }).catch(() => {});
        await queue.close();
        await Promise.all([a.close(), b.close()]);
        clock.set(new Date('2026-11-26T10:00:00Z'));
      }
    },
  );
});
