import { enableWriteCombiner } from '@qiraa/db';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore, RecordedEvent } from '../types';
import { postgresEventStore } from './postgresEventStore';

let db: TestDatabase;
let store: EventStore;

beforeAll(async () => {
  db = await createTestDatabase();
  const sql = db.connectAgain(4);
  enableWriteCombiner(sql, { windowMs: 20, maxBatch: 16 });
  store = postgresEventStore(sql);
});
afterAll(() => db.drop());

const event = (i: number) => ({ type: 'CombinedProbe', data: { i } });

describe('combined appends (append with combine, the write combiner on)', () => {
  it('answers each concurrent append with its own result: one of many same-version appends wins, ids stay unique', async () => {
    const heard: RecordedEvent[] = [];
    store.onAppended((events) => heard.push(...events));
    const settled = await Promise.allSettled([
      // Ten appends to one new stream, each expecting it absent: one appended, nine conflicts.
      ...Array.from({ length: 10 }, (_, i) =>
        store.append('combined-one', [event(i)], { expected: 'no_stream', combine: true }),
      ),
      // Ten to streams of their own, one of them twice with the same id: the second is a duplicate.
      ...Array.from({ length: 10 }, (_, i) =>
        store.append(`combined-${i}`, [{ ...event(i), eventId: `00000000-0000-4000-8000-00000000000${i % 9}` }], {
          expected: 'any',
          combine: true,
        }),
      ),
    ]);
    const results = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const kinds = settled.map((s) => (s.status === 'fulfilled' ? s.value.kind : 'refused'));
    expect(kinds.slice(0, 10).filter((k) => k === 'appended')).toHaveLength(1);
    expect(kinds.slice(0, 10).filter((k) => k === 'conflict')).toHaveLength(9);
    // combined-0 and combined-9 carry the same id: whichever ran second is refused (an id stored elsewhere),
    // alone: the other nine of its group are appended.
    expect(kinds.slice(10).filter((k) => k === 'appended')).toHaveLength(9);
    const refused = settled.flatMap((s) => (s.status === 'rejected' ? [String(s.reason.message)] : []));
    expect(refused).toEqual([expect.stringMatching(/already stored elsewhere/)]);
    const [stored] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from es_events where stream_id like 'combined-%'`;
    const appended = results.filter((r) => r.kind === 'appended').length;
    expect(stored!.n).toBe(appended);
    // Listeners hear exactly the appended events, after the shared commit.
    expect(heard).toHaveLength(appended);
  });
});
