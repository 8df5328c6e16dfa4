import { createTestDatabase, olderTransaction, type TestDatabase } from '@qiraa/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore } from '../types';
import { postgresEventStore } from './postgresEventStore';

let db: TestDatabase;
let store: EventStore;

beforeAll(async () => {
  db = await createTestDatabase();
  store = postgresEventStore(db.sql);
});
afterAll(() => db.drop());

describe('readHeldBack: what a rebuild swap applies beyond its checkpoint', () => {
  it('keeps an event readAll held back after the older transaction that held it back has ended', async () => {
    const older = await olderTransaction(db.connectAgain(1));
    await store.append('held-1', [{ type: 'HeldBack', data: { n: 1 } }]);
    const read = await store.readAll({ after: null, limit: 100, types: ['HeldBack'] });
    expect(read).toMatchObject({ events: [], caughtUp: true, waiting: true });

    // The older transaction ends between the swap's last readAll and its readHeldBack (another
    // projection's batch, a reaction): the event is now below the snapshot's xmin, yet still after the
    // checkpoint the swap keeps; the live table it drops holds it.
    await older.end();
    const held = await store.readHeldBack!(read.checkpoint, ['HeldBack']);
    expect(held.map((e) => e.data)).toEqual([{ n: 1 }]);
  });

  it('answers only the asked types after the checkpoint, in log order', async () => {
    const before = await store.readAll({ after: null, limit: 1000 });
    await store.append('held-2', [
      { type: 'Asked', data: { n: 2 } },
      { type: 'Other', data: {} },
      { type: 'Asked', data: { n: 3 } },
    ]);
    // Its own type: another database's open transaction (xmin is the cluster's) may leave the first test's
    // event after this checkpoint too.
    const held = await store.readHeldBack!(before.checkpoint, ['Asked']);
    expect(held.map((e) => e.data)).toEqual([{ n: 2 }, { n: 3 }]);
  });
});
