import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore } from '../types';
import { postgresEventStore } from './postgresEventStore';

/** A stream read inside the caller's statement answers exactly what `readStream` answers. */
let db: TestDatabase;
let store: EventStore;

beforeAll(async () => {
  db = await createTestDatabase();
  store = postgresEventStore(db.sql, { pollIntervalMs: 20 });
});
afterAll(() => db.drop());

describe('streamInStatement', () => {
  it('selects a stream beside other columns, event for event as readStream reads it', async () => {
    const streamId = 'trainingday-0b8a6f1e-1111-4a4a-9c9c-000000000001';
    await store.append(streamId, [
      { type: 'Opened', data: { dayId: 'd1', answers: [1, 2], nested: { ar: 'قراءة' } } },
      { type: 'Answered', data: { itemId: 'i1', correct: true }, metadata: { correlationId: 'c1' } },
    ]);
    await store.append('other-stream', [{ type: 'Noise', data: {} }]);
    await store.append(streamId, [{ type: 'Ended', data: { reason: 'done' } }]);
    const read = store.streamInStatement!(db.sql, db.sql`select ${streamId}::text`);
    const [row] = await db.sql<{ events: unknown; extra: number }[]>`select ${read.expr} as events, 7 as extra`;
    expect(row!.extra).toBe(7);
    const events = read.parse(row!.events);
    expect(events.map((e) => e.type)).toEqual(['Opened', 'Answered', 'Ended']);
    expect(events).toEqual(await store.readStream(streamId));
  });

  it('answers no events for a stream that does not exist, or a null stream id', async () => {
    for (const id of [db.sql`select 'nothing-here'::text`, db.sql`select null::text`]) {
      const read = store.streamInStatement!(db.sql, id);
      const [row] = await db.sql<{ events: unknown }[]>`select ${read.expr} as events`;
      expect(read.parse(row!.events)).toEqual([]);
    }
  });
});
