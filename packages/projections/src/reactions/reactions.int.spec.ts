import type { Sql } from '@qiraa/db';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { type EventStore, postgresEventStore, type RecordedEvent, untilNothingWaiting } from '@qiraa/eventstore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessReactor } from './inProcessReactor';
import { defineReaction, type Reaction } from './reaction';
import { reactionStatus } from './reactionStatus';
import { listParked } from './reactionStore';
import { retryParked } from './retryParked';
import { runReaction } from './runReaction';

let db: TestDatabase;
let store: EventStore;
const FAST = { baseDelayMs: 5, maxDelayMs: 20 };

beforeAll(async () => {
  db = await createTestDatabase();
  store = postgresEventStore(db.sql);
  // No unique key on purpose: a second delivery of an event would show as a second row.
  await db.sql`create table effects (reaction text not null, event_id uuid not null, by_consumer text, attempt int)`;
}, 60_000);
afterAll(async () => {
  await store.close();
  await db.drop();
});

/** A reaction that records each successful handle; `fail(event, attempt)` throws for the tries it names. */
function recorder(
  name: string,
  fail: (e: RecordedEvent, attempt: number) => Error | null = () => null,
  extra: Partial<Reaction> = {},
  consumer = 'a',
): Reaction {
  return defineReaction({
    name,
    handles: ['Poked'],
    async handle({ sql, attempt }, e) {
      // Each test reads the whole log from the start; it acts on its own streams only.
      if (!e.streamId.startsWith(`${name}-`)) return;
      const error = fail(e, attempt);
      if (error) throw error;
      await sql`insert into effects (reaction, event_id, by_consumer, attempt) values (${name}, ${e.eventId}, ${consumer}, ${attempt})`;
    },
    retry: { maxAttempts: 3, ...FAST },
    ...extra,
  });
}

async function poke(stream: string, keys: string[]): Promise<RecordedEvent[]> {
  const result = await store.append(
    stream,
    keys.map((key) => ({ type: 'Poked', data: { key } })),
  );
  if (result.kind !== 'appended') throw new Error(result.kind);
  // An unrelated type in between: the checkpoint moves over it.
  await store.append(`${stream}-other`, [{ type: 'Ignored', data: {} }]);
  expect(await untilNothingWaiting(store)).toBe(true);
  return result.events;
}

const effectsOf = (sql: Sql, name: string) =>
  sql<{ event_id: string; n: number; attempts: number[] }[]>`
    select event_id::text, count(*)::int as n, array_agg(attempt) as attempts from effects
    where reaction = ${name} group by event_id`;

describe('reactions', () => {
  it('handles each event once and moves its checkpoint past the log, skipping other types', async () => {
    const reaction = recorder('r_plain');
    const events = await poke('r_plain-1', ['a', 'b', 'c']);
    expect(await runReaction({ sql: db.sql, store }, reaction)).toMatchObject({
      kind: 'caught_up',
      handled: 3,
      parked: 0,
    });
    expect(await runReaction({ sql: db.sql, store }, reaction)).toMatchObject({ handled: 0 });
    const effects = await effectsOf(db.sql, 'r_plain');
    expect(effects.map((e) => e.event_id).sort()).toEqual(events.map((e) => e.eventId).sort());
    expect(effects.every((e) => e.n === 1)).toBe(true);
    const [status] = await reactionStatus({ sql: db.sql, store }, [reaction]);
    expect(status).toMatchObject({ name: 'r_plain', lag: 0, eventsHandled: 3, parked: 0 });
  });

  it('a transient error is retried with backoff and the effect lands once', async () => {
    const [first, second] = await poke('r_transient-1', ['x', 'y']);
    const reaction = recorder('r_transient', (e, attempt) =>
      e.eventId === first!.eventId && attempt < 3 ? new Error('connection reset') : null,
    );
    expect(await runReaction({ sql: db.sql, store }, reaction)).toMatchObject({ kind: 'caught_up', parked: 0 });
    const effects = await effectsOf(db.sql, 'r_transient');
    expect(effects.find((e) => e.event_id === first!.eventId)).toMatchObject({ n: 1, attempts: [3] });
    expect(effects.find((e) => e.event_id === second!.eventId)).toMatchObject({ n: 1, attempts: [1] });
    expect(await listParked(db.sql, { reaction: 'r_transient' })).toEqual([]);
  });

  it('a poison event is parked after its tries, the rest go on, and a retry delivers it once fixed', async () => {
    let broken = true;
    const events = await poke('r_poison-1', ['p', 'q', 'r']);
    const poison = events[0]!;
    const reaction = recorder('r_poison', (e) =>
      broken && e.eventId === poison.eventId ? new Error('rules away') : null,
    );
    expect(await runReaction({ sql: db.sql, store }, reaction)).toMatchObject({ kind: 'caught_up', parked: 1 });
    const parked = await listParked(db.sql, { reaction: 'r_poison' });
    expect(parked).toEqual([
      expect.objectContaining({ eventId: poison.eventId, eventType: 'Poked', attempts: 3, position: poison.position }),
    ]);
    expect(parked[0]!.error).toContain('rules away');
    const [status] = await reactionStatus({ sql: db.sql, store }, [reaction]);
    expect(status).toMatchObject({ lag: 0, parked: 1 });

    // Still broken: the retry leaves it parked, with its tries added.
    expect(await retryParked({ sql: db.sql, store }, reaction)).toEqual([
      expect.objectContaining({ eventId: poison.eventId, outcome: 'parked_again' }),
    ]);
    expect((await listParked(db.sql, { reaction: 'r_poison' }))[0]!.attempts).toBe(6);
    broken = false;
    expect(await retryParked({ sql: db.sql, store }, reaction, { eventId: poison.eventId })).toEqual([
      expect.objectContaining({ eventId: poison.eventId, outcome: 'delivered' }),
    ]);
    expect(await listParked(db.sql, { reaction: 'r_poison' })).toEqual([]);
    const [resolved] = await db.sql`select resolved_at from reaction_parked where event_id = ${poison.eventId}`;
    expect(resolved!.resolved_at).toBeInstanceOf(Date);
    expect((await effectsOf(db.sql, 'r_poison')).map((e) => e.n)).toEqual([1, 1, 1]);
  });

  it('an error the reaction calls permanent is parked at the first try', async () => {
    const [only] = await poke('r_permanent-1', ['z']);
    const reaction = recorder('r_permanent', () => new Error('refused payload'), { permanent: () => true });
    expect(await runReaction({ sql: db.sql, store }, reaction)).toMatchObject({ kind: 'caught_up', parked: 1 });
    expect(await listParked(db.sql, { reaction: 'r_permanent' })).toEqual([
      expect.objectContaining({ eventId: only!.eventId, attempts: 1 }),
    ]);
  });

  it('two processes on one database: every event handled exactly once between them', async () => {
    const otherPool = db.connectAgain(4);
    const otherStore = postgresEventStore(otherPool);
    const a = inProcessReactor({ sql: db.sql, store }, [recorder('r_shared', undefined, {}, 'a')], {
      sweepIntervalMs: 50,
    });
    const b = inProcessReactor({ sql: otherPool, store: otherStore }, [recorder('r_shared', undefined, {}, 'b')], {
      sweepIntervalMs: 50,
    });
    await Promise.all([a.start(), b.start()]);
    const appended: RecordedEvent[] = [];
    for (let i = 0; i < 20; i++) {
      const events = await poke(`r_shared-${i}`, ['1', '2', '3', '4', '5']);
      appended.push(...events);
      a.wake(events);
      b.wake(events);
    }
    await Promise.all([a.catchUp('r_shared'), b.catchUp('r_shared')]);
    await Promise.all([a.stop(), b.stop()]);
    const effects = await effectsOf(db.sql, 'r_shared');
    expect(effects).toHaveLength(appended.length);
    expect(effects.filter((e) => e.n !== 1)).toEqual([]);
    const [status] = await reactionStatus({ sql: db.sql, store }, [recorder('r_shared')]);
    expect(status).toMatchObject({ lag: 0, parked: 0 });
    await otherStore.close();
  });
});
