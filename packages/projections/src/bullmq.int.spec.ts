import { createTestDatabase, olderTransaction, type TestDatabase } from '@qiraa/db/testing';
import { type EventStore, postgresEventStore } from '@qiraa/eventstore';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bullmqProjector, PROJECTION_QUEUE, type ProjectionWorker, startProjectionWorker } from './bullmq';
import { defineProjection } from './projection';
import type { Projector } from './projector';
import { dropQueueKeys } from './testing/dropQueueKeys';

const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl) console.warn('[bullmq projections] skipped: TEST_REDIS_URL is not set');

const counted = defineProjection({
  name: 'counted',
  version: 1,
  handles: ['Counted'],
  tables: ['counted_rows'],
  async applyBatch({ sql, table }, events) {
    const ids = events.map((e) => e.eventId);
    await sql`insert into ${sql(table('counted_rows'))} (event_id) select unnest(${sql.array(ids)}::uuid[]) on conflict do nothing`;
  },
});

describe.skipIf(!redisUrl)('BullMQ projection wake-ups (real Redis)', { timeout: 90_000 }, () => {
  let db: TestDatabase;
  let store: EventStore;
  let projector: Projector;
  let worker: ProjectionWorker;
  const prefix = `qiraa-test-${process.pid}-${Date.now()}`;

  beforeAll(async () => {
    db = await createTestDatabase();
    store = postgresEventStore(db.sql);
    await db.sql`create table counted_rows (event_id uuid primary key)`;
    const runner = { sql: db.sql, store };
    projector = bullmqProjector(runner, [counted], { redisUrl: redisUrl!, prefix, sweepIntervalMs: 600_000 });
    store.onAppended((events) => projector.wake(events));
    await projector.start();
    // The xmin horizon is cluster-wide: another test file's long transaction on the same server holds these
    // events back (20 s and more seen in CI). A job then keeps looking as long as the poll below waits, so a
    // wake-up still has to do the work (the sweep runs once a minute here).
    worker = startProjectionWorker(runner, [counted], { redisUrl: redisUrl!, prefix, settleTimeoutMs: 60_000 });
  });

  afterAll(async () => {
    await worker?.close();
    await projector?.stop();
    await dropQueueKeys(redisUrl!, prefix);
    await db?.drop();
  });

  const rows = async () => Number((await db.sql`select count(*)::int as n from counted_rows`)[0]?.n);

  it('projects appended events through a worker woken by a deduplicated job', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.append(`counted-${i}`, [{ type: 'Counted', data: {} }])),
    );
    await expect.poll(rows, { timeout: 60_000, interval: 50 }).toBe(20);
  });

  it('keeps at most one pending wake-up per projection however many appends arrive', async () => {
    const queue = new Queue(PROJECTION_QUEUE, { connection: { url: redisUrl! }, prefix });
    await worker.worker.pause();
    try {
      for (let i = 0; i < 10; i++) await store.append(`burst-${i}`, [{ type: 'Counted', data: {} }]);
      // The sweep scheduler always keeps its next job delayed; count the wake-ups only.
      const pending = async () =>
        (await queue.getJobs(['wait', 'delayed', 'prioritized'])).filter((job) => job.name === 'project').length;
      await expect.poll(pending, { timeout: 5000, interval: 50 }).toBeGreaterThan(0);
      // Ten wake-ups, one job: the log and the checkpoint say what to do, not the job.
      expect(await pending()).toBe(1);
    } finally {
      worker.worker.resume();
      await queue.close();
    }
    await expect.poll(rows, { timeout: 60_000, interval: 50 }).toBe(30);
  });

  it('catches up from the periodic sweep even when a wake-up is lost', async () => {
    // Appended straight into the log with no listener: only the sweep can find these.
    const silent = postgresEventStore(db.sql);
    await silent.append('lost-wakeup', [{ type: 'Counted', data: {} }]);
    await projector.stop();
    const sweeping = bullmqProjector({ sql: db.sql, store }, [counted], {
      redisUrl: redisUrl!,
      prefix,
      sweepIntervalMs: 200,
    });
    await sweeping.start();
    await expect.poll(rows, { timeout: 60_000, interval: 50 }).toBe(31);
    await sweeping.stop();
  });
});

describe.skipIf(!redisUrl)('a BullMQ projection worker and events held back past its look', () => {
  let db: TestDatabase;
  let store: EventStore;
  let projector: Projector;
  let worker: ProjectionWorker;
  const prefix = `qiraa-test-held-projection-${process.pid}-${Date.now()}`;

  beforeAll(async () => {
    db = await createTestDatabase();
    store = postgresEventStore(db.sql);
    await db.sql`create table counted_rows (event_id uuid primary key)`;
    // No sweep within the test: only the wake-ups and the looks they ask for move the projection.
    projector = bullmqProjector({ sql: db.sql, store }, [counted], {
      redisUrl: redisUrl!,
      prefix,
      sweepIntervalMs: 600_000,
    });
    store.onAppended((events) => projector.wake(events));
    await projector.start();
    worker = startProjectionWorker({ sql: db.sql, store }, [counted], {
      redisUrl: redisUrl!,
      prefix,
      settleTimeoutMs: 300,
    });
  });

  afterAll(async () => {
    await worker?.close();
    await projector?.stop();
    await dropQueueKeys(redisUrl!, prefix);
    await db?.drop();
  });

  it('looks again after the older transaction ends, not only at the next sweep', async () => {
    const rows = async () => Number((await db.sql`select count(*)::int as n from counted_rows`)[0]?.n);
    const older = await olderTransaction(db.connectAgain(1));
    await Promise.all(Array.from({ length: 5 }, (_, i) => store.append(`held-${i}`, [{ type: 'Counted', data: {} }])));
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await rows()).toBe(0); // held back all along
    await older.end();
    await expect.poll(rows, { timeout: 10_000, interval: 100 }).toBe(5);
  }, 30_000);
});
