import { createTestDatabase, olderTransaction, type TestDatabase } from '@qiraa/db/testing';
import { type EventStore, postgresEventStore } from '@qiraa/eventstore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropQueueKeys } from '../testing/dropQueueKeys';
import { bullmqReactor, type ReactionWorker, startReactionWorker } from './bullmqReactor';
import { defineReaction } from './reaction';
import { listParked } from './reactionStore';
import type { Reactor } from './reactor';

const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl) console.warn('[bullmq reactions] skipped: TEST_REDIS_URL is not set');

describe.skipIf(!redisUrl)('reactions through BullMQ workers (real Redis)', () => {
  let db: TestDatabase;
  let store: EventStore;
  let reactor: Reactor;
  const workers: ReactionWorker[] = [];
  const prefix = `qiraa-test-reactions-${process.pid}-${Date.now()}`;
  // Two workers, each with its own pool: two processes as far as PostgreSQL can tell.
  const rang = defineReaction<{ type: 'Rang'; data: { poison?: boolean } }>({
    name: 'rang',
    handles: ['Rang'],
    async handle({ sql }, e) {
      if (e.data.poison) throw new Error('always fails');
      await sql`insert into rang_effects (event_id) values (${e.eventId})`;
    },
    retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 5 },
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    store = postgresEventStore(db.sql);
    // No unique key: a double delivery would show as a second row.
    await db.sql`create table rang_effects (event_id uuid not null)`;
    reactor = bullmqReactor({ sql: db.sql, store }, [rang], { redisUrl: redisUrl!, prefix, sweepIntervalMs: 60_000 });
    store.onAppended((events) => reactor.wake(events));
    await reactor.start();
    for (let i = 0; i < 2; i++) {
      const pool = db.connectAgain(4);
      workers.push(
        startReactionWorker({ sql: pool, store: postgresEventStore(pool) }, [rang], { redisUrl: redisUrl!, prefix }),
      );
    }
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await reactor?.stop();
    await dropQueueKeys(redisUrl!, prefix);
    await db?.drop();
  });

  it('two workers handle every event once, and park the poison one without stopping', async () => {
    await Promise.all(Array.from({ length: 30 }, (_, i) => store.append(`rang-${i}`, [{ type: 'Rang', data: {} }])));
    await store.append('rang-poison', [{ type: 'Rang', data: { poison: true } }]);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.append(`rang-after-${i}`, [{ type: 'Rang', data: {} }])),
    );
    const effects = async () => Number((await db.sql`select count(*)::int as n from rang_effects`)[0]?.n);
    // Another test file's long transaction on the same server (the xmin horizon is cluster-wide) can hold these
    // events back for 20 s and more in CI; the workers look again every few seconds until it ends.
    await expect.poll(effects, { timeout: 60_000, interval: 100 }).toBe(40);
    const [dupes] =
      await db.sql`select count(*)::int as n from (select event_id from rang_effects group by event_id having count(*) > 1) d`;
    expect(dupes!.n).toBe(0);
    expect(await listParked(db.sql, { reaction: 'rang' })).toEqual([expect.objectContaining({ attempts: 2 })]);
  }, 90_000);
});

describe.skipIf(!redisUrl)('a BullMQ reaction worker and events held back past its look', () => {
  let db: TestDatabase;
  let store: EventStore;
  let reactor: Reactor;
  let worker: ReactionWorker;
  const prefix = `qiraa-test-held-${process.pid}-${Date.now()}`;
  const noted = defineReaction<{ type: 'Noted'; data: Record<string, never> }>({
    name: 'noted',
    handles: ['Noted'],
    async handle({ sql }, e) {
      await sql`insert into noted_effects (event_id) values (${e.eventId})`;
    },
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    store = postgresEventStore(db.sql);
    await db.sql`create table noted_effects (event_id uuid primary key)`;
    // No sweep within the test: only the wake-ups and the looks they ask for move the reaction.
    reactor = bullmqReactor({ sql: db.sql, store }, [noted], { redisUrl: redisUrl!, prefix, sweepIntervalMs: 600_000 });
    store.onAppended((events) => reactor.wake(events));
    await reactor.start();
    const pool = db.connectAgain(4);
    worker = startReactionWorker({ sql: pool, store: postgresEventStore(pool) }, [noted], {
      redisUrl: redisUrl!,
      prefix,
      lookMs: 300,
    });
  });

  afterAll(async () => {
    await worker?.close();
    await reactor?.stop();
    await dropQueueKeys(redisUrl!, prefix);
    await db?.drop();
  });

  it('looks again after the older transaction ends, not only at the next sweep', async () => {
    // An older transaction with its id taken stays open for several of the worker's looks.
    const older = await olderTransaction(db.connectAgain(1));
    await Promise.all(Array.from({ length: 5 }, (_, i) => store.append(`noted-${i}`, [{ type: 'Noted', data: {} }])));
    const effects = async () => Number((await db.sql`select count(*)::int as n from noted_effects`)[0]?.n);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await effects()).toBe(0); // held back all along
    await older.end();
    await expect.poll(effects, { timeout: 10_000, interval: 100 }).toBe(5);
  }, 30_000);
});
