import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freeLoopbackPort } from '@qiraa/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, type Exited, runEntry } from './testing/processes';

const API = 'api';
const WORKER = 'worker';
const SECRET = 'pw-that-must-never-print';

/** Exit 1 with exactly one line on stderr (no stack trace), naming the setting, never the password. */
function expectOneLine(run: Exited, prefix: string, pattern: RegExp) {
  expect(run.code, run.stderr).toBe(1);
  const lines = run.stderr.split('\n').filter((l) => l.trim() !== '');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^${prefix}: `));
  expect(lines[0]).toMatch(pattern);
  expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
}

/**
 * What a new operator sees when a setting is wrong: one line that names the setting and the fix, exit code 1,
 * no stack trace, no credential, and no database cluster started for a start that cannot succeed.
 */
describe('start-up failures explain themselves', () => {
  let dir: string;
  let dataDir: string;
  let held: Server;
  let heldPort: number;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'qiraa-fail-'));
    await chmod(dir, 0o755);
    dataDir = path.join(dir, 'data');
    held = createServer();
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    heldPort = (held.address() as { port: number }).port;
  });
  afterAll(async () => {
    held.close();
    await rm(dir, { recursive: true, force: true });
  });

  const env = (extra: NodeJS.ProcessEnv) => cleanEnv({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, ...extra });

  it('PORT in use', async () => {
    const run = await runEntry(API, env({ PORT: String(heldPort) }));
    expectOneLine(
      run,
      'qiraa',
      new RegExp(`^qiraa: PORT ${heldPort} is already in use on 127\\.0\\.0\\.1; .*set PORT`),
    );
    expect(existsSync(path.join(dataDir, 'pg'))).toBe(false);
  });

  it('DATABASE_URL refused', async () => {
    const port = await freeLoopbackPort();
    const run = await runEntry(API, env({ DATABASE_URL: `postgres://qiraa:${SECRET}@127.0.0.1:${port}/qiraa` }));
    expectOneLine(
      run,
      'qiraa',
      new RegExp(`^qiraa: DATABASE_URL: .*qiraa@127\\.0\\.0\\.1:${port}/qiraa: connection refused`),
    );
  });

  it('DATABASE_URL naming a host that does not exist', async () => {
    const run = await runEntry(API, env({ DATABASE_URL: `postgres://qiraa:${SECRET}@no-such-host.invalid/qiraa` }));
    expectOneLine(run, 'qiraa', /^qiraa: DATABASE_URL: .*no-such-host\.invalid:5432\/qiraa: host not found/);
  });

  it('a malformed DATABASE_URL, without quoting it (it holds the password)', async () => {
    const run = await runEntry(API, env({ DATABASE_URL: `postgres://qiraa:${SECRET}#x@db:port/qiraa` }));
    expectOneLine(run, 'qiraa', /^qiraa: DATABASE_URL is not a PostgreSQL URL: write it as postgres:\/\//);
  });

  it('NODE_ENV=production without JWT_SECRET, before any database is started', async () => {
    const run = await runEntry(API, env({ NODE_ENV: 'production' }));
    expectOneLine(run, 'qiraa', /^qiraa: JWT_SECRET is required when NODE_ENV=production; set JWT_SECRET/);
    expect(existsSync(path.join(dataDir, 'pg'))).toBe(false);
  });

  it('QIRAA_CLOCK_SHIFT_DAYS with NODE_ENV=production (every other production setting valid)', async () => {
    const run = await runEntry(
      API,
      env({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(48), QIRAA_CLOCK_SHIFT_DAYS: '21' }),
    );
    expectOneLine(
      run,
      'qiraa',
      /^qiraa: QIRAA_CLOCK_SHIFT_DAYS .*tests and demos only; unset it when NODE_ENV=production/,
    );
    expect(existsSync(path.join(dataDir, 'pg'))).toBe(false);
  });

  it('QIRAA_CLOCK_SHIFT_DAYS that is not a whole number of days', async () => {
    const run = await runEntry(API, env({ QIRAA_CLOCK_SHIFT_DAYS: '1.5' }));
    expectOneLine(run, 'qiraa', /^qiraa: QIRAA_CLOCK_SHIFT_DAYS must be a whole number of days .*got "1\.5"/);
  });

  it.skipIf(process.getuid?.() !== 0)('a DATA_DIR the postgres user cannot enter (running as root)', async () => {
    const closed = path.join(dir, 'private');
    await mkdir(closed, { mode: 0o700 });
    const run = await runEntry(API, env({ DATA_DIR: path.join(closed, 'data') }));
    expectOneLine(
      run,
      'qiraa',
      new RegExp(`^qiraa: DATA_DIR: .*runs as user postgres.*cannot enter ${closed}; run \`chmod 755 ${closed}\``),
    );
  });

  it('the worker: no REDIS_URL, and a malformed DATABASE_URL', async () => {
    expectOneLine(await runEntry(WORKER, env({})), 'qiraa-worker', /^qiraa-worker: REDIS_URL is required/);
    const malformed = await runEntry(
      WORKER,
      env({ REDIS_URL: 'redis://127.0.0.1:1', DATABASE_URL: `postgresql://u:${SECRET}@[bad/x` }),
    );
    expectOneLine(malformed, 'qiraa-worker', /^qiraa-worker: DATABASE_URL is not a PostgreSQL URL/);
  });
});
