import type { AnySql } from '@qiraa/db';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlFragment, StreamScope } from '../auditReads';
import type { EventStore } from '../types';
import { untilNothingWaiting } from '../untilNothingWaiting';
import { postgresEventStore } from './postgresEventStore';

let db: TestDatabase;
let store: EventStore;

/** Every student belongs to org-s here: the fragment stands in for identity's `userOrganizationQuery`. */
const scopeOf = (organizationId: string): StreamScope => ({
  organizationId,
  studentOrganization: (sql: AnySql, _studentId: SqlFragment) => sql`select 'org-s'::text as organization_id`,
});

beforeAll(async () => {
  db = await createTestDatabase();
  store = postgresEventStore(db.sql);
  await store.append('ledger-1', [
    { type: 'Counted', data: { n: 1, ruleVersion: '3', studentId: 7 }, metadata: { organizationId: 'org-a' } },
    { type: 'Skipped', data: { n: 2 } },
    { type: 'Counted', data: { n: 3, ruleVersion: 4 } },
  ]);
  await store.append('other-1', [{ type: 'Counted', data: { studentId: 7 } }]);
  await untilNothingWaiting(store);
});
afterAll(() => db.drop());

describe("the event store's read port (PostgreSQL)", () => {
  it('reads only the asked fields as plain values, only the asked types, each stream in order', async () => {
    const rows = await store.readStreamFields(['other-1', 'ledger-1'], {
      types: ['Counted'],
      fields: { n: 'int', ruleVersion: 'int', missing: 'text' },
    });
    expect(rows.map((r) => [r.streamId, r.type, r.data])).toEqual([
      ['ledger-1', 'Counted', { n: 1, ruleVersion: 3, missing: null }],
      ['ledger-1', 'Counted', { n: 3, ruleVersion: 4, missing: null }],
      ['other-1', 'Counted', { n: null, ruleVersion: null, missing: null }],
    ]);
  });

  it('reads events by id and the log in commit order, scoped to an organization', async () => {
    const log = await store.readLog({ limit: 10 });
    expect(log.map((e) => e.streamId)).toEqual(['ledger-1', 'ledger-1', 'ledger-1', 'other-1']);
    expect((await store.readLog({ limit: 10, types: ['Skipped'] })).map((e) => e.data)).toEqual([{ n: 2 }]);
    expect((await store.readLog({ limit: 10, category: 'other' })).length).toBe(1);
    expect((await store.readLog({ after: log[2]!.position, limit: 10 })).map((e) => e.streamId)).toEqual(['other-1']);
    // ledger-1's metadata names org-a; other-1 has only a student, whose organization the fragment gives.
    expect((await store.readLog({ limit: 10, scope: scopeOf('org-a') })).length).toBe(3);
    expect((await store.readLog({ limit: 10, scope: scopeOf('org-s') })).map((e) => e.streamId)).toEqual(['other-1']);
    const ids = [log[3]!.eventId, 'not-a-uuid', log[0]!.eventId];
    expect((await store.readEventsById(ids)).map((e) => e.eventId)).toEqual([log[0]!.eventId, log[3]!.eventId]);
    expect((await store.readEventsById(ids, scopeOf('org-s'))).map((e) => e.eventId)).toEqual([log[3]!.eventId]);
    expect(await store.streamExists('ledger-1', scopeOf('org-a'))).toBe(true);
    expect(await store.streamExists('ledger-1', scopeOf('org-s'))).toBe(false);
    expect(await store.streamExists('nothing-1')).toBe(false);
  });

  it("lists a student's streams and the events a cause caused", async () => {
    const streams = await store.studentStreams(7, { limit: 10 });
    expect(streams.map((s) => [s.streamId, s.category, s.version])).toEqual([
      ['ledger-1', 'ledger', 3n],
      ['other-1', 'other', 1n],
    ]);
    expect((await store.studentStreams(7, { after: 'ledger-1', limit: 10 })).length).toBe(1);
    const [cause] = await store.readStream('ledger-1', { limit: 1 });
    await store.append('effect-1', [{ type: 'Caused', data: {}, metadata: { causationId: cause!.eventId } }]);
    const caused = await store.readEventsCausedBy(cause!.eventId, { limit: 10 });
    expect(caused.map((e) => e.streamId)).toEqual(['effect-1']);
  });

  it('reads the hash chain with each previous hash, and records and lists verify checkpoints', async () => {
    await untilNothingWaiting(store);
    const links = await store.readChain({ limit: 100 });
    const second = links.find((l) => l.streamId === 'ledger-1' && l.streamVersion === 2n)!;
    const first = links.find((l) => l.streamId === 'ledger-1' && l.streamVersion === 1n)!;
    expect(second.hasPrevious).toBe(true);
    expect(second.previousHash).toEqual(first.hash);
    expect(first.hasPrevious).toBe(false);
    expect(await store.streamHeadGaps()).toEqual([]);
    const last = links.at(-1)!;
    const checkpoint = {
      position: last.position,
      events: 5n,
      digest: Buffer.from('ab', 'hex'),
      verifiedAt: new Date(),
    };
    await store.recordVerifyCheckpoint(checkpoint);
    await store.recordVerifyCheckpoint(checkpoint);
    const recorded = await store.verifyCheckpoints();
    expect(recorded.map((c) => [c.position, c.events, c.digest.toString('hex')])).toEqual([[last.position, 5n, 'ab']]);
  });
});
