import { inTransaction } from '@qiraa/db';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStreamsThrough, readStreamThrough } from '../readStreamThrough';
import { eventStoreContract } from '../testing/eventStoreContract';
import type { EventStore } from '../types';
import { postgresEventStore } from './postgresEventStore';

let db: TestDatabase;
let store: EventStore;

beforeAll(async () => {
  db = await createTestDatabase();
  store = postgresEventStore(db.sql, { pollIntervalMs: 20 });
});
afterAll(() => db.drop());

eventStoreContract('postgres', () => ({
  store,
  // A second real connection whose transaction takes its xid and position first and commits last.
  async holdOpenAppend(streamId, events) {
    const slowSql = db.connectAgain(1);
    const slowStore = postgresEventStore(slowSql);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let appended!: () => void;
    const isAppended = new Promise<void>((r) => (appended = r));
    const finished = inTransaction(slowSql, async (uow) => {
      await slowStore.append(streamId, events, { uow });
      appended();
      await released;
    });
    await isAppended;
    return {
      async commit() {
        release();
        await finished;
      },
    };
  },
}));

describe('postgres event store specifics', () => {
  it('refuses UPDATE, DELETE and TRUNCATE on the events table', async () => {
    await store.append('guard-1', [{ type: 'Guarded', data: {} }]);
    await expect(db.sql`update es_events set data = '{}' where stream_id = 'guard-1'`).rejects.toThrow(/append-only/);
    await expect(db.sql`delete from es_events where stream_id = 'guard-1'`).rejects.toThrow(/append-only/);
    await expect(db.sql`truncate es_events cascade`).rejects.toThrow(/append-only/);
    expect(await store.readStream('guard-1')).toHaveLength(1);
  });

  it('orders the log by transaction id as a number, across a change in its digit count', async () => {
    // Two committed events written by transactions 5 and 10: as text, '10' sorts before '5'.
    await db.sql`insert into es_streams (stream_id, stream_type, version) values ('xid-order', 'xid', 2)`;
    await db.sql`
      insert into es_events (transaction_id, stream_id, stream_version, event_id, event_type, data, hash)
      values ('5'::xid8, 'xid-order', 1, gen_random_uuid(), 'XidOrdered', '{"n": 5}', sha256('')),
             ('10'::xid8, 'xid-order', 2, gen_random_uuid(), 'XidOrdered', '{"n": 10}', sha256(''))`;
    const first = await store.readAll({ after: null, limit: 1, types: ['XidOrdered'] });
    const second = await store.readAll({ after: first.checkpoint, limit: 1, types: ['XidOrdered'] });
    expect([...first.events, ...second.events].map((e) => e.data)).toEqual([{ n: 5 }, { n: 10 }]);
    const head = await store.head();
    expect(head && BigInt(head.split(':')[0]!)).toBeGreaterThan(10n);
  });

  it('rolls the events back with the unit of work that carried them', async () => {
    await expect(
      inTransaction(db.sql, async (uow) => {
        await store.append('rollback-1', [{ type: 'Doomed', data: {} }], { uow });
        throw new Error('caller failed after appending');
      }),
    ).rejects.toThrow('caller failed');
    expect(await store.readStream('rollback-1')).toEqual([]);
  });

  it('answers a duplicate inside a unit of work without breaking that transaction', async () => {
    const e = { eventId: '0b7e7a52-0f57-4f43-8a8e-5d3c3a1f0001', type: 'Once', data: {} };
    await store.append('dup-uow', [e]);
    const result = await inTransaction(db.sql, async (uow) => {
      const r = await store.append('dup-uow', [e], { uow });
      await uow.sql`select 1`;
      return r;
    });
    expect(result.kind).toBe('duplicate');
  });

  it('stores one copy when parallel writers send the same event ids (two or more real connections)', async () => {
    const again = postgresEventStore(db.connectAgain(3));
    const e = { eventId: '0b7e7a52-0f57-4f43-8a8e-5d3c3a1f0002', type: 'Raced', data: {} };
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? again : store).append('dup-race', [e], { expected: 'any' })),
    );
    expect(results.filter((r) => r.kind === 'appended')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'duplicate')).toHaveLength(5);
    expect(await store.readStream('dup-race')).toHaveLength(1);
  });

  it('refuses an event id that is already stored in another stream', async () => {
    const e = { eventId: '0b7e7a52-0f57-4f43-8a8e-5d3c3a1f0003', type: 'Once', data: {} };
    await store.append('owner-stream', [e]);
    await expect(store.append('other-stream', [e])).rejects.toThrow(/already stored elsewhere/);
    expect(await store.readStream('other-stream')).toEqual([]);
  });

  it('answers a stale expected version with conflict when some of the ids landed in the same stream meanwhile', async () => {
    const shared = { eventId: '0b7e7a52-0f57-4f43-8a8e-5d3c3a1f0004', type: 'Shared', data: {} };
    const mine = { eventId: '0b7e7a52-0f57-4f43-8a8e-5d3c3a1f0005', type: 'Mine', data: {} };
    // Two writers read version 0 and both decided `shared`; the first also wrote another event.
    await store.append('moved-on', [{ type: 'Theirs', data: {} }, shared], { expected: 0n });
    expect(await store.append('moved-on', [mine, shared], { expected: 0n })).toEqual({
      kind: 'conflict',
      expected: 0n,
      actual: 2n,
    });
    expect(await store.readStream('moved-on')).toHaveLength(2);
  });

  it('tells listeners about appends only after commit', async () => {
    const seen: string[] = [];
    store.onAppended((events) => seen.push(...events.map((e) => e.streamId)));
    await inTransaction(db.sql, async (uow) => {
      await store.append('listen-1', [{ type: 'Heard', data: {} }], { uow });
      expect(seen).not.toContain('listen-1');
    });
    expect(seen).toContain('listen-1');
  });
});

describe("reads through the caller's transaction (readStreamWithin, readStreamsWithin)", () => {
  it("sees the transaction's own uncommitted events, filters types and picks data keys", async () => {
    await inTransaction(db.sql, async (uow) => {
      await store.append(
        'within-1',
        [
          { type: 'Kept', data: { a: 1, big: 'x'.repeat(100), nested: { b: 2 } } },
          { type: 'Skipped', data: { a: 2 } },
          { type: 'Kept', data: { big: 'y' } },
        ],
        { uow },
      );
      expect(await store.readStream('within-1')).toEqual([]); // not committed: the pool does not see them
      const kept = await readStreamThrough(store, uow.sql, 'within-1', { types: ['Kept'], dataKeys: ['a', 'nested'] });
      expect(kept.map((e) => [e.type, e.streamVersion, e.data])).toEqual([
        ['Kept', 1n, { a: 1, nested: { b: 2 } }],
        ['Kept', 3n, {}],
      ]);
      const whole = await readStreamThrough(store, uow.sql, 'within-1');
      expect(whole.map((e) => e.data)).toEqual([
        { a: 1, big: 'x'.repeat(100), nested: { b: 2 } },
        { a: 2 },
        { big: 'y' },
      ]);
      await store.append('within-2', [{ type: 'Other', data: { c: 3 } }], { uow });
      const both = await readStreamsThrough(store, uow.sql, ['within-2', 'within-1', 'within-none']);
      expect(both.map((e) => `${e.streamId}@${e.streamVersion}`).sort()).toEqual([
        'within-1@1',
        'within-1@2',
        'within-1@3',
        'within-2@1',
      ]);
    });
  });
});

describe('appendMany (PostgreSQL, one statement)', () => {
  it('appends several streams in order, reads back like single appends, and announces after the commit', async () => {
    const told: string[] = [];
    store.onAppended((events) => told.push(...events.map((e) => `${e.streamId}:${e.streamVersion}`)));
    await store.append('many-a', [{ type: 'Seen', data: { n: 0 } }]);
    told.length = 0;
    const results = await inTransaction(db.sql, async (uow) => {
      const appended = await store.appendMany!(
        [
          {
            streamId: 'many-a',
            events: [
              { type: 'Seen', data: { n: 1 } },
              { type: 'Seen', data: { n: 2 } },
            ],
          },
          { streamId: 'many-b', events: [{ type: 'Other', data: null, metadata: { correlationId: 'c' } }] },
        ],
        { uow },
      );
      expect(told).toEqual([]);
      return appended;
    });
    expect(results.map((r) => r.kind)).toEqual(['appended', 'appended']);
    expect(told).toEqual(['many-a:2', 'many-a:3', 'many-b:1']);
    const a = await store.readStream('many-a');
    expect(a.map((e) => [e.streamVersion, e.data])).toEqual([
      [1n, { n: 0 }],
      [2n, { n: 1 }],
      [3n, { n: 2 }],
    ]);
    const [b] = await store.readStream('many-b');
    expect(b).toMatchObject({ type: 'Other', data: null, metadata: { correlationId: 'c' } });
    expect(results[1]).toMatchObject({ kind: 'appended', events: [{ eventId: b!.eventId, position: b!.position }] });
    const again = await store.appendMany!([
      { streamId: 'many-b', events: [{ eventId: b!.eventId, type: 'Other', data: null }] },
    ]);
    expect(again).toEqual([{ kind: 'duplicate', streamVersion: 1n }]);
  });
});
