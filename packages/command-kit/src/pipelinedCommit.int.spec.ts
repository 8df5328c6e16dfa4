import { inTransaction } from '@qiraa/db';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { type EventStore, type NewEvent, postgresEventStore, type RecordedEvent } from '@qiraa/eventstore';
import { defineProjection } from '@qiraa/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCommandContext } from './commandContext';
import type { Decider } from './decider';
import { handleCommand } from './handleCommand';
import { writeStreams } from './writeStreams';

let db: TestDatabase;
let store: EventStore;

type Added = NewEvent<{ amount: number }>;
const amountOf = (e: RecordedEvent) => Number((e.data as { amount?: unknown }).amount ?? 0);

/** Adds `amount` to a stream's total; the projection below keeps each event's stream version beside it. */
const adder: Decider<{ amount: number }, Added, number> = {
  initialState: () => 0,
  evolve: (total, e) => total + amountOf(e),
  decide: ({ amount }) => [{ type: 'Added', data: { amount } }],
};
const rows = defineProjection({
  name: 'pipelined_rows',
  version: 1,
  handles: ['Added'],
  tables: ['pipelined_rows'],
  async applyBatch({ sql, table }, events) {
    const values = events.map((e) => ({
      event_id: e.eventId,
      stream_id: e.streamId,
      version: Number(e.streamVersion),
      amount: amountOf(e),
    }));
    await sql`
      insert into ${sql(table('pipelined_rows'))} (event_id, stream_id, version, amount)
      select * from jsonb_to_recordset(${sql.json(values)}) as r(event_id uuid, stream_id text, version int, amount int)`;
  },
});
const context = defineCommandContext({ name: 'pipelining', inline: [rows] });
const rowsOf = (streamId: string) =>
  db.sql<{ version: number; amount: number }[]>`
    select version, amount from pipelined_rows where stream_id = ${streamId} order by version`;

beforeAll(async () => {
  db = await createTestDatabase();
  store = postgresEventStore(db.sql);
  await db.sql`create table pipelined_rows (event_id uuid primary key, stream_id text not null, version int not null, amount int not null)`;
});
afterAll(async () => {
  await db?.drop();
});

describe("handleCommand's pipelined commit", () => {
  it('appends and projects with the version decided on; a rival append is a rolled-back conflict, decided again', async () => {
    const streamId = 'pipelined-a';
    await handleCommand({ sql: db.sql, store }, { context, streamId, decider: adder, command: { amount: 1 } });
    let loads = 0;
    const result = await handleCommand(
      { sql: db.sql, store },
      {
        context,
        streamId,
        decider: adder,
        command: { amount: 10 },
        pipelined: true,
        load: {
          name: 'stream, with a rival append after the first read',
          inTransaction: false,
          async load() {
            const events = await store.readStream(streamId);
            if (loads++ === 0) await store.append(streamId, [{ type: 'Other', data: {} }]);
            return { state: events.reduce(adder.evolve, 0), version: events.at(-1)?.streamVersion ?? 0n };
          },
        },
      },
    );
    expect([result.kind, result.attempts, result.state, result.events[0]?.streamVersion]).toEqual([
      'appended',
      2,
      11,
      3n,
    ]);
    // The first attempt's projection rows rolled back with its refused append: one row per stored event.
    expect(await rowsOf(streamId)).toEqual([
      { version: 1, amount: 1 },
      { version: 3, amount: 10 },
    ]);
  });
});

describe('writeStreams', () => {
  it('appends several streams in one unit of work and projects what each append wrote', async () => {
    const write = (amount: number): Added => ({ type: 'Added', data: { amount } });
    const results = await inTransaction(db.sql, (uow) =>
      writeStreams(store, uow, context, [
        { streamId: 'many-a', events: [write(1), write(2)] },
        { streamId: 'many-b', events: [] },
        { streamId: 'many-c', events: [write(3)] },
      ]),
    );
    expect(results.map((r) => r.kind)).toEqual(['appended', 'duplicate', 'appended']);
    expect([await rowsOf('many-a'), await rowsOf('many-c')]).toEqual([
      [
        { version: 1, amount: 1 },
        { version: 2, amount: 2 },
      ],
      [{ version: 1, amount: 3 }],
    ]);
  });
});
