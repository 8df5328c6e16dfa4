import { recordAuditEvent } from '@qiraa/audit';
import { createDatabaseIfMissing } from '@qiraa/db';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { postgresEventStore, untilNothingWaiting } from '@qiraa/eventstore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './testing/runCli';
import { runCliInProcess } from './testing/runCliInProcess';

let db: TestDatabase;
let env: NodeJS.ProcessEnv;
const EVENTS = 25;

beforeAll(async () => {
  db = await createTestDatabase();
  env = { DATABASE_URL: db.url };
  const store = postgresEventStore(db.sql);
  for (let i = 0; i < EVENTS; i++) {
    await recordAuditEvent(store, {
      eventType: 'class_login_code_rotated',
      organizationId: 'org_cli',
      actorUserId: i + 1,
      detail: { detail: 'manual' },
    });
  }
  await untilNothingWaiting(store);
});
afterAll(() => db.drop());

// Each command family runs once as a real process (runCli); its further cases run the same program in this
// process (runCliInProcess.ts), a second of CPU less each.
describe('qiraa CLI', () => {
  it('migrate reports an up-to-date database', async () => {
    const run = await runCli(['migrate'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^up to date \(\d+ applied\)/);
  });

  it('projections status shows the lag of a projection that has not run, in events and seconds, as a plain table', async () => {
    const run = await runCli(['projections', 'status'], env);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    const [header, rule] = lines;
    const audit = lines.find((line) => line.startsWith('audit_log '));
    const head = lines.at(-1);
    expect(header!.split(/\s{2,}/)).toEqual([
      'projection',
      'version',
      'state',
      'lag',
      'lag (s)',
      'applied',
      'checkpoint',
      'updated at',
    ]);
    expect(rule).toMatch(/^[- ]+$/);
    // The oldest of the 25 waiting events was appended before the command started: its age is above 0.
    const [name, version, state, lag, lagSeconds, applied, checkpoint] = audit!.split(/\s{2,}/);
    expect({ name, version, state, lag, applied, checkpoint }).toEqual({
      name: 'audit_log',
      version: '1',
      state: 'behind',
      lag: String(EVENTS),
      applied: '0',
      checkpoint: '(start)',
    });
    expect(Number(lagSeconds)).toBeGreaterThan(0);
    expect(head).toMatch(/^log head: \d+/);
  });

  it('projections rebuild replays the audit streams into audit_log with a progress bar', async () => {
    const run = await runCli(['projections', 'rebuild', 'audit_log', '--batch', '10'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^rebuilt audit_log: 25 events in [\d.]+ s/m);
    expect(run.stderr).toMatch(/audit_log\s+\[[█░]+\] 100% \| 25\/25 events/);
    const [row] = await db.sql`select count(*)::int as n, count(distinct actor_user_id)::int as actors from audit_log`;
    expect(row).toEqual({ n: EVENTS, actors: EVENTS });
    const status = JSON.parse((await runCliInProcess(['projections', 'status', '--json'], env)).stdout);
    expect(status[0]).toMatchObject({ lag: 0, lagSeconds: 0, storedVersion: 1, eventsApplied: EVENTS });
    expect(status[0].checkpoint).toBe(status[0].head);
  });

  it('refuses an unknown projection with exit code 2', async () => {
    const run = await runCliInProcess(['projections', 'rebuild', 'nope'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown projection "nope"; known: audit_log/);
  });

  it('events read prints one stream as NDJSON', async () => {
    const run = await runCli(['events', 'read', 'audit-org_cli', '--from', '24'], env);
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.streamVersion)).toEqual(['24', '25']);
    expect(lines[0]).toMatchObject({ type: 'AuditRecorded', data: { eventType: 'class_login_code_rotated' } });
  });

  it('events read fails with exit code 1 for an empty stream', async () => {
    const run = await runCliInProcess(['events', 'read', 'audit-nobody'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/stream "audit-nobody" has no events/);
  });

  it('events tail prints the log in commit order, filtered and limited', async () => {
    const run = await runCli(['events', 'tail', '--type', 'AuditRecorded', '--limit', '3'], env);
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.data.actorUserId)).toEqual([1, 2, 3]);
  });

  it('answers a usage error with exit code 2', async () => {
    expect((await runCli(['bogus'], env)).code).toBe(2);
    expect((await runCliInProcess(['events', 'read', 'x', '--from', 'zero'], env)).code).toBe(2);
  });

  it('answers a filter the KurrentDB store cannot serve with exit code 1 (a failure, not a usage error)', async () => {
    // Refused before any connection: the address need not answer.
    const run = await runCliInProcess(['events', 'tail', '--category', 'xp'], {
      ...env,
      EVENTSTORE_URL: 'esdb://127.0.0.1:1?tls=false',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^qiraa: --from, --to, --category and --org need the PostgreSQL event store/);
  });

  it('answers a checkpoint that is not one with exit code 2 and says what one looks like', async () => {
    const run = await runCliInProcess(['events', 'tail', '--after', 'garbage'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^qiraa: --after must be the position of an event .*not "garbage"\n$/);
    const first = JSON.parse((await runCliInProcess(['events', 'tail', '--limit', '1'], env)).stdout);
    const after = await runCliInProcess(['events', 'tail', '--after', first.position, '--limit', '1'], env);
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout).position).not.toBe(first.position);
  });

  it('tells the operator to migrate an unmigrated database', async () => {
    const fresh = await createDatabaseIfMissing(db.url.replace(/\/[^/]*$/, '/postgres'), `${db.name}_empty`);
    const run = await runCliInProcess(['projections', 'status'], { DATABASE_URL: fresh });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/pending migration\(s\); run `qiraa migrate` first/);
    const migrated = await runCliInProcess(['migrate'], { DATABASE_URL: fresh });
    expect(migrated.stdout).toMatch(/applied 0001_event_store\.sql/);
    await db.sql`select 1`; // keep the pool alive; the extra database is dropped with the server's run
  });
});
