import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { freeLoopbackPort } from '@qiraa/db';
import { entryArgs } from '@qiraa/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, ROOT } from './testing/processes';

/**
 * A start-up that cannot finish ends by itself: one line, exit 1, within 15 s (issue 23). Before, an
 * unreachable REDIS_URL left the API waiting for ever, silent, and `DATA_DIR=/proc/nope` spun at 100 % CPU
 * (Node 20's recursive mkdir under /proc); both ignored SIGTERM.
 */
describe('start-ups are bounded', () => {
  let dir: string;
  let silent: Server;
  let silentPort: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'qiraa-bounded-'));
    await chmod(dir, 0o755);
    // Accepts connections and never answers: a Redis that hangs rather than refuses.
    silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    silent.close();
    await rm(dir, { recursive: true, force: true });
  });

  const env = (extra: NodeJS.ProcessEnv) =>
    cleanEnv({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: path.join(dir, 'data'), ...extra });

  /**
   * The API to its end. Loading its modules takes seconds on a busy machine, so the bounds are measured from
   * the moment start-up reached Redis (or from the signal), not from the spawn.
   */
  function runApi(extra: NodeJS.ProcessEnv) {
    const child = spawn(process.execPath, entryArgs('api'), {
      cwd: ROOT,
      env: env(extra),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => {
      stderr += c;
      output += c;
    });
    const kill = setTimeout(() => child.kill('SIGKILL'), 170_000);
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child.once('exit', (code) => {
        clearTimeout(kill);
        resolve({ code, at: performance.now() });
      }),
    );
    return { child, exited, stderr: () => stderr, output: () => output };
  }

  function expectOneLine(stderr: string, pattern: RegExp) {
    const lines = stderr.split('\n').filter((l) => l.trim() !== '');
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toMatch(pattern);
  }

  it('an unreachable REDIS_URL: one line, exit 1, no database started', { timeout: 180_000 }, async () => {
    const port = await freeLoopbackPort();
    const run = runApi({ REDIS_URL: `redis://127.0.0.1:${port}` });
    const { code } = await run.exited;
    expect(code, run.stderr()).toBe(1);
    expectOneLine(
      run.stderr(),
      new RegExp(`^qiraa: REDIS_URL: cannot reach Redis at redis://127\\.0\\.0\\.1:${port} `),
    );
  });

  it('a REDIS_URL that accepts and never answers: one line, exit 1, within 15 s of asking', {
    timeout: 180_000,
  }, async () => {
    const before = sockets.length;
    const run = runApi({ REDIS_URL: `redis://127.0.0.1:${silentPort}` });
    await expect.poll(() => sockets.length, { timeout: 170_000, interval: 50 }).toBeGreaterThan(before);
    const asked = performance.now();
    const { code, at } = await run.exited;
    expect(at - asked).toBeLessThan(15_000);
    expect(code, run.stderr()).toBe(1);
    expectOneLine(run.stderr(), /^qiraa: REDIS_URL: cannot reach Redis/);
  });

  it('DATA_DIR=/proc/nope: one line, exit 1 (before: a silent loop at 100 % CPU)', { timeout: 180_000 }, async () => {
    const run = runApi({ DATA_DIR: '/proc/nope' });
    const { code } = await run.exited;
    expect(code, run.stderr()).toBe(1);
    expectOneLine(run.stderr(), /^qiraa: DATA_DIR: \/proc\/nope is not usable .*set DATA_DIR/);
  });

  it('SIGTERM during a start-up that is stuck stops the process at once', { timeout: 180_000 }, async () => {
    const before = sockets.length;
    const run = runApi({ REDIS_URL: `redis://127.0.0.1:${silentPort}` });
    // Start-up is now waiting on the silent Redis (its bound is 5 s).
    await expect.poll(() => sockets.length, { timeout: 170_000, interval: 50 }).toBeGreaterThan(before);
    const t0 = performance.now();
    run.child.kill('SIGTERM');
    const { code, at } = await run.exited;
    expect(at - t0, run.output()).toBeLessThan(4000);
    expect(code, run.output()).not.toBeNull();
    expect(run.output()).toContain('shutting down');
  });
});
