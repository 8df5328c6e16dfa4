import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freeLoopbackPort } from '@qiraa/db';
import { npmWithBundles } from '@qiraa/db/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, isRunning, postmasterPid, type Started, start, waitForHttp } from './testing/processes';

/** The JSON log lines of a process started through npm (npm's own banner lines are not JSON). */
function logLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

/**
 * A process manager signals the pid it started, which for `npm start` is npm's; a terminal sends SIGHUP when it
 * closes; a supervisor may die. Every one of these must stop node and the embedded PostgreSQL it started, so
 * no server is left holding DATA_DIR and the port. Real processes: npm, node, PostgreSQL. npm runs package.json's
 * scripts with the run's bundle in place of `--import tsx <source>` (npmWithBundles: 4 CPU-s less per start);
 * start.e2e.spec.ts runs the start script itself as written.
 */
describe('stopping `npm start` stops node and its embedded PostgreSQL', () => {
  let dir: string;
  let dataDir: string;
  const pgDir = () => path.join(dataDir, 'pg');
  const running: Started[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'qiraa-signals-'));
    await chmod(dir, 0o755);
    dataDir = path.join(dir, 'data');
  });
  afterEach(() => {
    for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function npmStart() {
    const port = await freeLoopbackPort();
    const npm = start(
      'npm',
      ['start'],
      cleanEnv({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ...npmWithBundles() }),
    );
    running.push(npm);
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, npm);
    const node = Number(logLines(npm.output())[0]?.pid);
    expect(node).toBeGreaterThan(0);
    expect(node).not.toBe(npm.child.pid);
    return { npm, node, port };
  }

  const stopped = { timeout: 30_000, interval: 100 };

  // One start per distinct path, each a full `npm start` (the slowest file of the suite had all seven
  // combinations): npm forwarding a signal (SIGTERM, and SIGINT as Ctrl-C delivers it twice), npm gone without
  // forwarding (SIGKILL; SIGHUP to npm takes the same 'parent exited' path), and a signal straight to node
  // (SIGHUP; node's SIGTERM and SIGINT run the same handler, `STOP_SIGNALS` in processLifecycle.ts).
  const ways = [
    { signal: 'SIGTERM', to: 'npm' },
    { signal: 'SIGINT', to: 'npm' },
    { signal: 'SIGKILL', to: 'npm' }, // the parent dies without a word
    { signal: 'SIGHUP', to: 'node' },
  ] as const;

  it.each(ways)('$signal to $to', async ({ signal, to }) => {
    const { npm, node } = await npmStart();
    const postgres = postmasterPid(pgDir());
    expect(postgres).not.toBeNull();
    expect(isRunning(postgres!)).toBe(true);

    process.kill(to === 'npm' ? npm.child.pid! : node, signal);

    await expect.poll(() => isRunning(node), stopped).toBe(false);
    await expect.poll(() => isRunning(postgres!), stopped).toBe(false);
    expect(postmasterPid(pgDir())).toBeNull(); // a clean PostgreSQL shutdown removes it
    await npm.exited;
    const reason = to === 'npm' && signal === 'SIGKILL' ? 'parent exited' : signal;
    expect(logLines(npm.output())).toContainEqual(expect.objectContaining({ msg: 'shutting down', reason }));
  });

  it.skipIf(!process.env.TEST_REDIS_URL)(
    'the worker too: SIGHUP to `npm run worker` stops it and its PostgreSQL',
    async () => {
      const workerDir = path.join(dir, 'worker');
      const npm = start(
        'npm',
        ['run', 'worker'],
        cleanEnv({
          DATA_DIR: workerDir,
          REDIS_URL: process.env.TEST_REDIS_URL,
          QUEUE_PREFIX: `qiraa-signals-${process.pid}`,
          ...npmWithBundles(),
        }),
      );
      running.push(npm);
      await expect
        .poll(() => logLines(npm.output()).find((l) => l.msg === 'worker ready'), { timeout: 90_000, interval: 200 })
        .toBeDefined();
      const lines = logLines(npm.output());
      const node = Number(lines[0]?.pid);
      expect(lines).toContainEqual(
        expect.objectContaining({ embeddedPostgres: 'started', dataDir: path.join(workerDir, 'pg') }),
      );
      const postgres = postmasterPid(path.join(workerDir, 'pg'))!;
      expect(isRunning(postgres)).toBe(true);

      process.kill(npm.child.pid!, 'SIGHUP');

      await expect.poll(() => isRunning(node), stopped).toBe(false);
      await expect.poll(() => isRunning(postgres), stopped).toBe(false);
      expect(logLines(npm.output())).toContainEqual(expect.objectContaining({ reason: 'parent exited' }));
    },
  );

  it('logs the data directory and port; a second server joins the cluster and leaves it to its owner', async () => {
    const owner = await npmStart();
    const postgres = postmasterPid(pgDir())!;
    expect(logLines(owner.npm.output())).toContainEqual(
      expect.objectContaining({ dataDir: pgDir(), embeddedPostgres: 'started', postgresPort: expect.any(Number) }),
    );
    const started = logLines(owner.npm.output()).find((l) => l.embeddedPostgres === 'started')!;
    expect(started.msg).toBe(`embedded PostgreSQL started: data in ${pgDir()}, port ${started.postgresPort}`);

    const second = await npmStart();
    const joined = logLines(second.npm.output()).find((l) => l.embeddedPostgres)!;
    expect(joined).toMatchObject({ embeddedPostgres: 'joined', dataDir: pgDir(), postgresPort: started.postgresPort });
    process.kill(second.npm.child.pid!, 'SIGTERM');
    await expect.poll(() => isRunning(second.node), stopped).toBe(false);
    expect(isRunning(postgres)).toBe(true);
    expect((await fetch(`http://127.0.0.1:${owner.port}/readyz`)).status).toBe(200);

    process.kill(owner.npm.child.pid!, 'SIGTERM');
    await expect.poll(() => isRunning(postgres), stopped).toBe(false);
    expect(await owner.npm.exited).toBe(0);
  });
});
