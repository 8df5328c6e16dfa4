import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { verifyLog } from '@qiraa/auditing';
import {
  connect,
  createDatabaseIfMissing,
  MIGRATIONS_DIR,
  migrateOrThrow,
  readMigrationFiles,
  type Sql,
} from '@qiraa/db';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { type EventStore, postgresEventStore, untilNothingWaiting, withWriteContext } from '@qiraa/eventstore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 26: "existing events are chained by a migration". A database migrated up to the file before 0044
 * holds events written the old way (no hash, no index, no stream organization); the rest of the migrations
 * then chain them in SQL, and `verifyLog` (what `qiraa events verify` runs) must recompute the very same
 * chain in the application, keep it across the next append, and still find a row edited afterwards.
 */
let named: TestDatabase; // only for the run's prefix: the database under test is its sibling
let sql: Sql;
let store: EventStore;
let before44: string;

/** JSON that jsonb prints differently from JSON.stringify (key order, exponents, escapes, non-ASCII). */
const tricky = { zeta: 1e21, a: 1.5e-7, ключ: 'نص عربي', é: '\u0001\t"\\/', nested: { y: [1, 2.5, null], x: {} } };

beforeAll(async () => {
  named = await createTestDatabase();
  const url = await createDatabaseIfMissing(named.url.replace(/\/[^/]*$/, '/postgres'), `${named.name}_pre44`);
  sql = connect(url, { max: 2 });
  before44 = await mkdtemp(path.join(tmpdir(), 'qiraa-pre44-'));
  for (const file of await readMigrationFiles(MIGRATIONS_DIR)) {
    if (file.name < '0044') await copyFile(path.join(MIGRATIONS_DIR, file.name), path.join(before44, file.name));
  }
  await migrateOrThrow(sql, before44);
  // Written as the store wrote them before 0044: rows, a stream head, no hash.
  await sql`insert into organizations (id, name, slug, country, default_locale)
            values ('org_pre44', 'مدارس', 'pre44', 'JO', 'ar-JO')`;
  await sql`insert into es_streams (stream_id, stream_type, version)
            values ('ledger-1', 'ledger', 3), ('audit-org_pre44', 'audit', 1), ('plain-1', 'plain', 1)`;
  for (let v = 1; v <= 3; v++) {
    await sql`insert into es_events (stream_id, stream_version, event_id, event_type, data, metadata)
              values ('ledger-1', ${v}, gen_random_uuid(), 'Counted',
                      ${sql.json({ i: v, studentId: 7, tricky })},
                      ${sql.json(v === 1 ? { organizationId: 'org_pre44' } : {})})`;
  }
  await sql`insert into es_events (stream_id, stream_version, event_id, event_type, data)
            values ('audit-org_pre44', 1, gen_random_uuid(), 'AuditRecorded', ${sql.json({ eventType: 'probe' })}),
                   ('plain-1', 1, gen_random_uuid(), 'Counted', ${sql.json({ tricky })})`;
  await migrateOrThrow(sql); // 0044 and later
  store = postgresEventStore(sql);
}, 60_000);
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await named?.drop();
  await rm(before44, { recursive: true, force: true });
});

async function verify() {
  await untilNothingWaiting(store, { timeoutMs: 60_000 });
  return verifyLog(store);
}

describe('migration 0044 on events written before it', () => {
  it('chains them as the application recomputes them, and backfills the index and the organizations', async () => {
    expect(await verify()).toMatchObject({ ok: true, events: 5, breaks: [] });
    expect(await sql`select student_id::int as s, stream_id from es_stream_students`).toEqual([
      { s: 7, stream_id: 'ledger-1' },
    ]);
    expect(await sql`select stream_id, organization_id from es_streams order by stream_id`).toEqual([
      { stream_id: 'audit-org_pre44', organization_id: 'org_pre44' },
      { stream_id: 'ledger-1', organization_id: 'org_pre44' },
      { stream_id: 'plain-1', organization_id: null },
    ]);
  });

  it('continues the chain at the next append', async () => {
    await withWriteContext(
      { systemActor: 'cli:test', organizationId: 'org_pre44', correlationId: 'c1', causationId: 'c1' },
      () => store.append('ledger-1', [{ type: 'Counted', data: { i: 4, studentId: 7, tricky } }]),
    );
    expect(await verify()).toMatchObject({ ok: true, events: 6 });
  });

  it('finds a migrated event edited afterwards, by its id', async () => {
    const [row] = await sql<{ event_id: string }[]>`
      select event_id::text from es_events where stream_id = 'ledger-1' and stream_version = 2`;
    await sql.begin(async (tx) => {
      await tx`alter table es_events disable trigger es_events_no_update`;
      await tx`update es_events set data = jsonb_set(data, '{i}', '20') where event_id = ${row!.event_id}`;
      await tx`alter table es_events enable trigger es_events_no_update`;
    });
    const report = await verify();
    expect(report.ok).toBe(false);
    expect(report.breaks[0]).toMatchObject({
      kind: 'altered',
      eventId: row!.event_id,
      streamId: 'ledger-1',
      version: 2,
    });
  });
});
