import { describeBreak, verifyLog } from '@qiraa/auditing';
import { inTransaction } from '@qiraa/db';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import {
  type EventStore,
  jsonbText,
  postgresEventStore,
  untilNothingWaiting,
  withWriteContext,
} from '@qiraa/eventstore';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventsTailCommand } from './commands/events';
import { eventsGetCommand, eventsStreamsCommand } from './commands/eventsAudit';
import { runCli } from './testing/runCli';

let db: TestDatabase;
let store: EventStore;
const AT = new Date('2026-11-28T03:00:00Z');

/** JSON that jsonb prints differently from JSON.stringify: key order, exponents, escapes, non-ASCII. */
const tricky = {
  zeta: 1e21,
  a: 1.5e-7,
  bb: -0.1,
  ключ: 'نص عربي',
  é: '\u0001\t"\\/',
  nested: { long_key: [1, 2.5, null, true, { y: 1, x: [] }], k: {} },
  big: 123456789012345,
  emoji: '😀',
};

beforeAll(async () => {
  db = await createTestDatabase();
  store = postgresEventStore(db.sql);
  await withWriteContext(
    { systemActor: 'cli:test', organizationId: 'org_v', correlationId: 'c1', causationId: 'c1' },
    async () => {
      for (let i = 1; i <= 4; i++)
        await store.append('ledger-1', [{ type: 'Counted', data: { i, studentId: 7, tricky } }]);
      await store.append('ledger-2', [
        { type: 'Counted', data: { i: 1 } },
        { type: 'Counted', data: { i: 2 } },
      ]);
      await store.appendMany?.([
        { streamId: 'ledger-3', events: [{ type: 'Counted', data: { i: 1, studentId: 8 } }] },
        { streamId: 'ledger-2', events: [{ type: 'Counted', data: { i: 3, tricky } }] },
      ]);
    },
  );
}, 60_000);
afterAll(() => db.drop());

type Row = Record<string, unknown>;
/** The JSON lines a command writes to stdout while it runs. */
async function printed(run: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await untilNothingWaiting(store);
    await run();
  } finally {
    spy.mockRestore();
  }
  return lines
    .join('')
    .split('\n')
    .filter((l) => l.trim() !== '');
}
/** Other databases' open transactions hold the cluster's xmin back: wait until every commit is readable. */
async function verify(options?: Parameters<typeof verifyLog>[1]) {
  await untilNothingWaiting(store);
  return verifyLog(store, options);
}
const row = async (streamId: string, version: number) =>
  ((await db.sql`select * from es_events where stream_id = ${streamId} and stream_version = ${version}`) as Row[])[0]!;
/** Runs a change with the append-only triggers off, as a superuser could. */
async function tamper(change: (sql: TestDatabase['sql']) => Promise<unknown>) {
  await inTransaction(db.sql, async ({ sql: tx }) => {
    await tx`alter table es_events disable trigger es_events_no_update`;
    await change(tx as unknown as TestDatabase['sql']);
    await tx`alter table es_events enable trigger es_events_no_update`;
  });
}
/** Keeps a copy of an event's row (every column exact, created_at to the microsecond) to put back later. */
async function saveRow(streamId: string, version: number, name: string): Promise<Row> {
  await db.sql`create table ${db.sql(name)} as select * from es_events
               where stream_id = ${streamId} and stream_version = ${version}`;
  return row(streamId, version);
}
async function putBack(name: string) {
  await tamper((sql) => sql`insert into es_events select * from ${sql(name)}`);
}

describe('the hash chain (migration 0044) and qiraa events verify', () => {
  it('computes, in the application, the text PostgreSQL prints for jsonb', async () => {
    const values = [tricky, [tricky, 'x'], { '': 0, ab: 1, b: 2, aa: 3 }, 0, -5e-324, 1.7976931348623157e308];
    for (const value of values) {
      const [pg] = await db.sql<{ text: string }[]>`select (${JSON.stringify(value)}::text)::jsonb::text as text`;
      expect(jsonbText(JSON.parse(JSON.stringify(value)))).toBe(pg!.text);
    }
  });

  it("hashes an event as the migration chained the existing ones (the database's jsonb text)", async () => {
    const [check] = await db.sql<{ events: number; same: number }[]>`
      select count(*)::int as events,
             count(*) filter (where e.hash = es_chain_step(p.hash, e.stream_version, e.created_at,
               sha256(convert_to(jsonb_build_array(e.event_id::text, e.stream_id, e.event_type, e.schema_version,
                                                   e.data, e.metadata)::text, 'UTF8'))))::int as same
      from es_events e
      left join es_events p on p.stream_id = e.stream_id and p.stream_version = e.stream_version - 1`;
    expect(check).toEqual({ events: 8, same: 8 });
  });

  it('stamps the write context on each event and indexes the students the events name', async () => {
    const [first] = await store.readStream('ledger-1');
    expect(first!.metadata).toEqual({
      systemActor: 'cli:test',
      actorUserId: null,
      organizationId: 'org_v',
      correlationId: 'c1',
      causationId: 'c1',
    });
    const index = await db.sql`select student_id::int as s, stream_id from es_stream_students order by 1, 2`;
    expect(index).toEqual([
      { s: 7, stream_id: 'ledger-1' },
      { s: 8, stream_id: 'ledger-3' },
    ]);
    const [stream] = await db.sql`select organization_id from es_streams where stream_id = 'ledger-2'`;
    expect(stream).toEqual({ organization_id: 'org_v' });
  });

  it('events streams, get and a filtered tail mirror the auditor routes (in process)', async () => {
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = db.url;
    try {
      const streams = (await printed(() => eventsStreamsCommand({ student: '7' }))).map((l) => JSON.parse(l));
      expect(streams).toEqual([expect.objectContaining({ streamId: 'ledger-1', category: 'ledger', version: 4 })]);
      const [first] = await store.readStream('ledger-2');
      const got = JSON.parse((await printed(() => eventsGetCommand(first!.eventId, {}))).join('\n'));
      expect(got).toMatchObject({
        event: { eventId: first!.eventId, streamId: 'ledger-2', version: 1 },
        causedBy: null,
      });
      const tail = (await printed(() => eventsTailCommand({ category: 'ledger', org: 'org_v', limit: '3' }))).map((l) =>
        JSON.parse(l),
      );
      expect(tail.map((e) => [e.streamId, e.streamVersion])).toEqual([
        ['ledger-1', '1'],
        ['ledger-1', '2'],
        ['ledger-1', '3'],
      ]);
      expect(await printed(() => eventsTailCommand({ from: '2999-01-01T00:00:00Z' }))).toEqual([]);
    } finally {
      process.env.DATABASE_URL = saved;
    }
  });

  it('passes on an untouched log and records a checkpoint that the next run meets', async () => {
    const first = await verify({ record: { at: AT } });
    expect(first).toMatchObject({ ok: true, events: 8, breaks: [], checkpointsMet: 0 });
    expect(first.recorded).toMatchObject({ events: 8, digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const again = await verify({ record: { at: AT } });
    expect(again).toMatchObject({ ok: true, events: 8, checkpointsMet: 1 });
    expect((await verify({ organizationId: 'org_v' })).ok).toBe(true);
  });

  it('finds an edited event, by its id, and passes again once it is restored', async () => {
    const saved = await row('ledger-1', 2);
    await tamper(
      (sql) =>
        sql`update es_events set data = jsonb_set(data, '{i}', '20') where event_id = ${saved.event_id as string}`,
    );
    const report = await verify();
    expect(report.ok).toBe(false);
    expect(report.breaks[0]).toMatchObject({
      kind: 'altered',
      eventId: saved.event_id,
      streamId: 'ledger-1',
      version: 2,
    });
    await tamper(
      (sql) =>
        sql`update es_events set data = ${JSON.stringify(saved.data)}::text::jsonb where event_id = ${saved.event_id as string}`,
    );
    expect((await verify()).ok).toBe(true);
  });

  it('finds a deleted event by its stream and version (in the middle, or the last one)', async () => {
    const middle = await saveRow('ledger-1', 3, 'saved_middle');
    await tamper((sql) => sql`delete from es_events where event_id = ${middle.event_id as string}`);
    expect((await verify()).breaks[0]).toEqual({ kind: 'missing', streamId: 'ledger-1', version: 3 });
    await putBack('saved_middle');
    expect((await verify()).ok).toBe(true);

    const last = await saveRow('ledger-1', 4, 'saved_last');
    await tamper((sql) => sql`delete from es_events where event_id = ${last.event_id as string}`);
    const report = await verify();
    expect(report.breaks).toContainEqual({ kind: 'missing', streamId: 'ledger-1', version: 4 });
    // The stream's head moved back too: only the checkpoint's digest still shows the loss.
    await db.sql`update es_streams set version = 3 where stream_id = 'ledger-1'`;
    expect((await verify()).breaks[0]).toMatchObject({ kind: 'checkpoint' });
    await db.sql`update es_streams set version = 4 where stream_id = 'ledger-1'`;
    await putBack('saved_last');
    expect((await verify()).ok).toBe(true);
  });

  it('finds re-ordered events, and passes once the order is restored', async () => {
    const swap = (sql: TestDatabase['sql']) =>
      sql`update es_events set stream_version = case stream_version when 1 then 2 else 1 end
          where stream_id = 'ledger-2' and stream_version in (1, 2)`;
    const one = await row('ledger-2', 1);
    await tamper(async (sql) => {
      await sql`alter table es_events drop constraint es_events_pkey`;
      await swap(sql);
      await sql`alter table es_events add primary key (stream_id, stream_version)`;
    });
    const report = await verify();
    expect(report.ok).toBe(false);
    expect(report.breaks[0]).toMatchObject({ kind: 'altered', streamId: 'ledger-2' });
    expect(describeBreak(report.breaks.find((b) => b.kind === 'altered' && b.eventId === one.event_id)!)).toMatch(
      /^event [0-9a-f-]{36} \(stream ledger-2 version 2/,
    );
    await tamper(async (sql) => {
      await sql`alter table es_events drop constraint es_events_pkey`;
      await swap(sql);
      await sql`alter table es_events add primary key (stream_id, stream_version)`;
    });
    expect((await verify()).ok).toBe(true);
  });

  it('qiraa events verify exits 1 naming the first broken event', async () => {
    const saved = await row('ledger-3', 1);
    await tamper((sql) => sql`update es_events set metadata = '{}' where event_id = ${saved.event_id as string}`);
    await untilNothingWaiting(store);
    const run = await runCli(['events', 'verify'], { DATABASE_URL: db.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`first broken: event ${saved.event_id} \\(stream ledger-3 version 1`));
  });
});
