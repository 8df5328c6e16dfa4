import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import {
  deterministicEventId,
  type EventStore,
  type NewEvent,
  postgresEventStore,
  withWriteContext,
} from '@qiraa/eventstore';
import { defineProjection } from '@qiraa/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCommandContext } from './commandContext';
import type { Decider } from './decider';
import { CommandConflictError, handleCommand } from './handleCommand';
import { ProjectionSpecification } from './testing';

let db: TestDatabase;
let store: EventStore;

/** A counter that refuses to pass its limit; `Added` may carry a deterministic id (`key`). */
type Add = { amount: number; limit: number; key?: string };
type Added = NewEvent<{ amount: number }>;
type Counter = { total: number; keys: Set<string> };

const counter: Decider<Add, Added, Counter> = {
  initialState: () => ({ total: 0, keys: new Set() }),
  evolve: (s, e) =>
    e.type === 'Added'
      ? { total: s.total + (e.data as { amount: number }).amount, keys: new Set(s.keys).add(e.eventId) }
      : s,
  decide({ amount, limit, key }, state) {
    const eventId = key ? deterministicEventId('counter', key) : undefined;
    if (eventId && state.keys.has(eventId)) return []; // done already: nothing to say
    if (state.total + amount > limit) throw new Error(`over the limit: ${state.total} + ${amount} > ${limit}`);
    return [{ ...(eventId ? { eventId } : {}), type: 'Added', data: { amount } }];
  },
};

let failNext = false;
const totals = defineProjection({
  name: 'counter_totals',
  version: 1,
  handles: ['Added'],
  tables: ['counter_rows'],
  async applyBatch({ sql, table }, events) {
    if (failNext) {
      failNext = false;
      throw new Error('projection failed');
    }
    const rows = events.map((e) => ({
      event_id: e.eventId,
      stream_id: e.streamId,
      amount: (e.data as Added['data']).amount,
    }));
    await sql`
      insert into ${sql(table('counter_rows'))} (event_id, stream_id, amount)
      select r.event_id, r.stream_id, r.amount from jsonb_to_recordset(${sql.json(rows)}) as r(event_id uuid, stream_id text, amount int)
      on conflict do nothing`;
  },
});
const context = defineCommandContext({ name: 'counting', inline: [totals] });

const sumOf = async (streamId: string) => {
  const [row] = await db.sql<{ s: number }[]>`
    select coalesce(sum(amount), 0)::int as s from counter_rows where stream_id = ${streamId}`;
  return row?.s;
};
const deps = () => ({ sql: db.sql, store });

beforeAll(async () => {
  db = await createTestDatabase();
  store = postgresEventStore(db.sql);
  await db.sql`create table counter_rows (event_id uuid primary key, stream_id text not null, amount int not null)`;
});
afterAll(async () => {
  await db?.drop();
});

describe('handleCommand', () => {
  it('folds the stream, appends with its version, and applies the context’s projections in the same transaction', async () => {
    const streamId = 'counter-a';
    const first = await handleCommand(deps(), {
      context,
      streamId,
      decider: counter,
      command: { amount: 2, limit: 10 },
    });
    const second = await handleCommand(deps(), {
      context,
      streamId,
      decider: counter,
      command: { amount: 3, limit: 10 },
    });
    expect([first.kind, first.state.total, first.attempts]).toEqual(['appended', 2, 1]);
    expect([second.kind, second.state.total, second.events[0]?.streamVersion]).toEqual(['appended', 5, 2n]);
    expect(await sumOf(streamId)).toBe(5);
  });

  it('a refusal writes nothing; a failing projection rolls the append back', async () => {
    const streamId = 'counter-b';
    await expect(
      handleCommand(deps(), { context, streamId, decider: counter, command: { amount: 11, limit: 10 } }),
    ).rejects.toThrow(/over the limit/);
    failNext = true;
    await expect(
      handleCommand(deps(), { context, streamId, decider: counter, command: { amount: 1, limit: 10 } }),
    ).rejects.toThrow('projection failed');
    expect(await store.readStream(streamId)).toEqual([]);
    expect(await sumOf(streamId)).toBe(0);
  });

  it('a write landing between load and append is a conflict: decided again on the new stream', async () => {
    const streamId = 'counter-c';
    let loads = 0;
    const result = await handleCommand(deps(), {
      context,
      streamId,
      decider: counter,
      command: { amount: 4, limit: 10 },
      load: {
        name: 'stream, with a rival append after the first read',
        inTransaction: false,
        async load() {
          const events = await store.readStream(streamId);
          if (loads++ === 0) await store.append(streamId, [{ type: 'Added', data: { amount: 5 } }]);
          return {
            state: events.reduce(counter.evolve, counter.initialState()),
            version: events.at(-1)?.streamVersion ?? 0n,
          };
        },
      },
    });
    expect([result.kind, result.attempts, result.state.total]).toEqual(['appended', 2, 9]);
    // The rival's event went through the store alone (no inline projection): only this command's row.
    expect(await sumOf(streamId)).toBe(4);

    // Decided again, the rule sees the rival: 5 + 6 passes the limit, so the retry refuses.
    loads = 0;
    await expect(
      handleCommand(deps(), {
        context,
        streamId: 'counter-d',
        decider: counter,
        command: { amount: 6, limit: 10 },
        load: {
          name: 'rival',
          inTransaction: false,
          async load() {
            const events = await store.readStream('counter-d');
            if (loads++ === 0) await store.append('counter-d', [{ type: 'Added', data: { amount: 5 } }]);
            return {
              state: events.reduce(counter.evolve, counter.initialState()),
              version: events.at(-1)?.streamVersion ?? 0n,
            };
          },
        },
      }),
    ).rejects.toThrow(/over the limit: 5 \+ 6/);
  });

  it('gives up after the attempts with the caller’s error, or CommandConflictError', async () => {
    const streamId = 'counter-e';
    const alwaysStale = {
      name: 'stale',
      inTransaction: true as const,
      async load() {
        await store.append(streamId, [{ type: 'Added', data: { amount: 0 } }]);
        return { state: counter.initialState(), version: 0n };
      },
    };
    const options = { context, streamId, decider: counter, command: { amount: 1, limit: 10 }, load: alwaysStale };
    await expect(handleCommand(deps(), { ...options, attempts: 3 })).rejects.toBeInstanceOf(CommandConflictError);
    await expect(
      handleCommand(deps(), { ...options, attempts: 2, onConflict: () => new Error('409 concurrent_change') }),
    ).rejects.toThrow('409 concurrent_change');
  });

  it('a deterministic id stored already: retry decides again (nothing left), done answers at once', async () => {
    const streamId = 'counter-f';
    const command = { amount: 1, limit: 10, key: 'f-1' };
    await handleCommand(deps(), { context, streamId, decider: counter, command });
    // A loader blind to the stored event: the append finds every id stored.
    const blind = {
      name: 'blind first',
      inTransaction: false as const,
      async load(attempt: number) {
        const events = attempt === 0 ? [] : await store.readStream(streamId);
        return {
          state: events.reduce(counter.evolve, counter.initialState()),
          version: events.at(-1)?.streamVersion ?? 0n,
        };
      },
    };
    const retried = await handleCommand(deps(), { context, streamId, decider: counter, command, load: blind });
    expect([retried.kind, retried.attempts, retried.state.total]).toEqual(['unchanged', 2, 1]);
    const done = await handleCommand(deps(), {
      context,
      streamId,
      decider: counter,
      command,
      load: blind,
      onDuplicate: 'done',
    });
    expect([done.kind, done.attempts]).toEqual(['duplicate', 1]);
    expect(await store.readStream(streamId)).toHaveLength(1);
  });

  it('stamps the command’s metadata under each event’s own, and the write context on top', async () => {
    const streamId = 'counter-g';
    const result = await withWriteContext({ actorUserId: 9, correlationId: 'req-1' }, () =>
      handleCommand(deps(), {
        context,
        streamId,
        decider: counter,
        command: { amount: 1, limit: 10 },
        metadata: (state) => ({ organizationId: 'org-g', totalBefore: state.total }),
      }),
    );
    expect(result.events[0]?.metadata).toMatchObject({
      organizationId: 'org-g',
      totalBefore: 0,
      actorUserId: 9,
      correlationId: 'req-1',
    });
  });

  it('pipelined: append, projections and COMMIT in one exchange; a conflict rolls back and is decided again', async () => {
    const streamId = 'counter-h';
    let loads = 0;
    const result = await handleCommand(deps(), {
      context,
      streamId,
      decider: counter,
      command: { amount: 4, limit: 10 },
      pipelined: true,
      load: {
        name: 'stream, with a rival append after the first read',
        inTransaction: false,
        async load() {
          const events = await store.readStream(streamId);
          if (loads++ === 0) await store.append(streamId, [{ type: 'Added', data: { amount: 5 } }]);
          return {
            state: events.reduce(counter.evolve, counter.initialState()),
            version: events.at(-1)?.streamVersion ?? 'no_stream',
          };
        },
      },
    });
    expect([result.kind, result.attempts, result.state.total, result.events[0]?.streamVersion]).toEqual([
      'appended',
      2,
      9,
      2n,
    ]);
    // The first attempt's projected row rolled back with its append; the second's committed.
    expect(await sumOf(streamId)).toBe(4);
    expect((await store.readStream(streamId)).map((e) => (e.data as { amount: number }).amount)).toEqual([5, 4]);
  });

  it('followUp runs in the append’s unit of work (pipelined or not), and its failure rolls the append back', async () => {
    for (const pipelined of [false, true]) {
      const streamId = `counter-i-${pipelined}`;
      const seen: number[] = [];
      await handleCommand(deps(), {
        context,
        streamId,
        decider: counter,
        command: { amount: 3, limit: 10 },
        pipelined,
        followUp: (state) =>
          state.total >= 3
            ? async (uow) => {
                // It reads what the inline projection wrote in the same transaction.
                const [row] = await uow.sql<{ s: number }[]>`
                  select sum(amount)::int as s from counter_rows where stream_id = ${streamId}`;
                seen.push(row!.s);
              }
            : null,
      });
      expect(seen).toEqual([3]);
      await expect(
        handleCommand(deps(), {
          context,
          streamId,
          decider: counter,
          command: { amount: 1, limit: 10 },
          pipelined,
          followUp: () => async () => {
            throw new Error('follow-up failed');
          },
        }),
      ).rejects.toThrow('follow-up failed');
      expect(await sumOf(streamId)).toBe(3);
      expect(await store.readStream(streamId)).toHaveLength(1);
    }
  });
});

describe('ProjectionSpecification', () => {
  it('given events, then rows: the projection against the real database, no app', async () => {
    const spec = ProjectionSpecification.for(db.sql, totals);
    await spec
      .given({
        streamId: 'counter-p',
        events: [
          { type: 'Added', data: { amount: 2 } },
          { type: 'Other', data: {} },
        ],
      })
      .thenRows(
        (sql) => sql<{ amount: number }[]>`select amount from counter_rows where stream_id = 'counter-p'`,
        [{ amount: 2 }],
      );
    await expect(
      spec
        .given({ streamId: 'counter-q', events: [{ type: 'Added', data: { amount: 3 } }] })
        .thenRows((sql) => sql`select amount from counter_rows where stream_id = 'counter-q'`, [{ amount: 4 }]),
    ).rejects.toThrow();
  });
});
