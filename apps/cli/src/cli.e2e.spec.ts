import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './testing/runCli';

/** The seed's progress on stderr ("seed-demo [3/12] …", "seed-demo: done in 19.3 s"): all it may print there. */
const SEED_PROGRESS = /^seed-demo(?: \[\d+\/\d+\] |: done in )/;

/** The CLI on a fresh clone: no DATABASE_URL, its own embedded PostgreSQL under DATA_DIR. */
describe('qiraa on a fresh data directory', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'qiraa-cli-e2e-'));
    await chmod(dir, 0o755);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('seed-demo migrates first (as the server does), seeds, and stops the PostgreSQL it started', async () => {
    const dataDir = path.join(dir, 'fresh');
    const run = await runCli(['seed-demo'], { DATA_DIR: dataDir, DATABASE_URL: '' }, { timeoutMs: 240_000 });
    expect(run.code, run.stderr).toBe(0);
    // Nothing on stderr but the seed's progress lines ("seed-demo [3/12] …", "seed-demo: done in 19.3 s").
    expect(run.stderr.split('\n').filter((l) => l !== '' && !SEED_PROGRESS.test(l))).toEqual([]);
    expect(run.stdout).toMatch(/^Demo data created: organization /);
    expect(existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 300_000);

  it.skipIf(process.getuid?.() !== 0)('says which folder to open when postgres cannot enter DATA_DIR', async () => {
    const closed = path.join(dir, 'private');
    await mkdir(closed, { mode: 0o700 });
    const run = await runCli(['projections', 'status'], { DATA_DIR: path.join(closed, 'data'), DATABASE_URL: '' });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `qiraa: DATA_DIR: the embedded PostgreSQL runs as user postgres (this process runs as root) and cannot enter ` +
        `${closed}; run \`chmod 755 ${closed}\` (or chmod o+x) or set DATA_DIR to a directory outside it\n`,
    );
  });

  it('names DATABASE_URL without printing it when it is malformed', async () => {
    const run = await runCli(['projections', 'status'], { DATABASE_URL: 'postgres://qiraa:s3cret#x@db:port/q' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^qiraa: DATABASE_URL is not a PostgreSQL URL: write it as postgres:\/\/[^\n]*\n$/);
    expect(run.stderr).not.toContain('s3cret');
  });
});
