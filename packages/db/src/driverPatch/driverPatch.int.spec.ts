import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../connect';
import { createTestDatabase, type TestDatabase } from '../testing';
import { switchableProxy } from './switchableProxy';

/**
 * postgres.js 3.4.9 throws from a setImmediate callback when it writes to a connection that just closed
 * (porsager/postgres #1154, #1208; no release fixes it). `patches/postgres+3.4.9.patch`, applied by
 * patch-package on every `npm ci`, guards that write. Before the patch this child died with exit 1 and the
 * TypeError; the reproduction runs in its own process so a regression cannot take vitest down with it.
 */
describe('postgres.js null-socket write (patched)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('a transaction whose backend dies rejects CONNECTION_CLOSED and the process lives on', () => {
    const script = fileURLToPath(new URL('./nullSocketWrite.mjs', import.meta.url));
    const child = spawnSync(process.execPath, [script, db.url], { encoding: 'utf8', timeout: 20_000 });
    expect(child.stderr).not.toContain("Cannot read properties of null (reading 'write')");
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout.trim())).toEqual({ outcome: 'CONNECTION_CLOSED', after: 1 });
  });

  it('a reserved connection that closed while reserved is reconnected after its release, not reused dead', async () => {
    // Before the second hunk of the patch, release() put the closed connection back in the open queue with
    // no socket: later queries on it hung, or (with the null-socket guard) failed CONNECTION_CLOSED at once,
    // seconds of 503s after an outage in the fault suite, and the pool never reconnected it.
    const sql = connect(db.url, { max: 1 });
    try {
      const reserved = await sql.reserve();
      const [backend] = await reserved<{ pid: number }[]>`select pg_backend_pid() as pid`;
      await db.sql`select pg_terminate_backend(${backend!.pid})`;
      const lost = await reserved`select 1`.then(
        () => 'answered',
        (error: { code?: string }) => error.code,
      );
      expect(lost).toMatch(/57P01|CONNECTION_CLOSED|ECONNRESET/);
      reserved.release();
      // Unpatched, one of these hangs for good. Patched, every query settles: when the socket's error came a
      // loop turn before its close (ECONNRESET above), the released connection is still taken for the first
      // query, which fails with the dead backend's error; after that the pool has reconnected and answers.
      // The third hunk is what keeps the killed backend's 57P01 from being handed to the reconnected one.
      const answers: unknown[] = [];
      for (let i = 0; i < 3; i++) {
        answers.push(
          await sql<{ one: number }[]>`select 1 as one`.then(
            (rows) => rows[0]?.one,
            (error: { code?: string }) => error.code,
          ),
        );
      }
      if (lost === 'ECONNRESET') expect([1, '57P01', 'CONNECTION_CLOSED']).toContain(answers[0]);
      else expect(answers[0]).toBe(1);
      expect(answers.slice(1)).toEqual([1, 1]);
    } finally {
      await sql.end({ timeout: 1 });
    }
  });

  it('statements queued on a reservation settle when its connection dies under them', async () => {
    // The fault suite's stuck request: a transaction pipelines its statements on a reserved connection. A
    // statement with parameters not yet prepared there is sent describe-first, which marks the connection
    // full; the statements after it wait in the reservation's own queue. The connection died (PostgreSQL
    // stopped) and that queue was dropped unsettled: the request never answered. The fifth hunk rejects it.
    const sql = connect(db.url, { max: 1 });
    try {
      const reserved = await sql.reserve();
      const [backend] = await reserved<{ pid: number }[]>`select pg_backend_pid() as pid`;
      const settle = (query: PromiseLike<unknown>) =>
        Promise.resolve(query).then(
          () => 'answered',
          (error: { code?: string }) => error.code ?? 'error',
        );
      const sleeping = settle(reserved`select pg_sleep(2)`);
      const describedFirst = settle(reserved`select ${7}::int as seven`);
      const queued = [settle(reserved`select ${8}::int as eight`), settle(reserved`select 9`)];
      await new Promise((resolve) => setTimeout(resolve, 200));
      await db.sql`select pg_terminate_backend(${backend!.pid})`;
      const bound = new Promise((resolve) => setTimeout(() => resolve('unsettled after 5 s'), 5000));
      const outcomes = await Promise.all([sleeping, describedFirst, ...queued].map((q) => Promise.race([q, bound])));
      for (const outcome of outcomes) expect(outcome).toMatch(/57P01|CONNECTION_CLOSED|ECONNRESET/);
      reserved.release();
      const [row] = await sql<{ one: number }[]>`select 1 as one`.catch(() => sql<{ one: number }[]>`select 1 as one`);
      expect(row?.one).toBe(1);
    } finally {
      await sql.end({ timeout: 1 });
    }
  });

  it('reservations asked for while the server refuses connects all settle, and the pool serves after', async () => {
    // The fault suite's stuck stop: a projection run waiting for a connection (no bound) never got one after
    // PostgreSQL came back. postgres.js took a waiting reservation off its queue as a reconnect's first query
    // and dropped it when that reconnect succeeded; and a reservation rejected with a refused connect stayed
    // queued, so the connection later handed to it was lost to the pool. The sixth hunk fixes both.
    const proxy = await switchableProxy({ host: '127.0.0.1', port: Number(new URL(db.url).port || 5432) });
    const url = new URL(db.url);
    url.port = String(proxy.port);
    const sql = connect(url.toString(), { max: 1 });
    const within = (work: Promise<unknown>, ms: number) =>
      Promise.race([
        work.then(
          () => 'answered',
          (error: { code?: string }) =>
            /ECONNREFUSED|CONNECTION_CLOSED/.test(String(error.code)) ? 'refused' : String(error.code),
        ),
        new Promise((resolve) => setTimeout(() => resolve('unsettled'), ms)),
      ]);
    try {
      await sql`select 1`;
      await proxy.down();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const asked = Array.from({ length: 20 }, () =>
        within(
          sql.reserve().then((reserved) => reserved.release()),
          4000,
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 150));
      await proxy.up();
      const outcomes = await Promise.all(asked);
      expect(outcomes.filter((o) => o !== 'answered' && o !== 'refused')).toEqual([]);
      expect(outcomes).toContain('answered');
      const held = await Promise.all(
        [0, 1, 2].map(() =>
          within(
            sql.reserve().then((reserved) => reserved`select 1`.then(() => reserved.release())),
            4000,
          ),
        ),
      );
      expect(held).toEqual(['answered', 'answered', 'answered']);
    } finally {
      await sql.end({ timeout: 1 });
      await proxy.close();
    }
  });
});
