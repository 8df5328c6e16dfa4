import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeLoopbackPort } from '@qiraa/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/src/testing/runCli';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * `npm start` on a fresh checkout: no DATABASE_URL, no REDIS_URL. The server must start its own
 * PostgreSQL under DATA_DIR, serve, let the CLI share that database, and stop it all on SIGTERM.
 */
describe('npm start with nothing configured', () => {
  let dataDir: string;
  let port: number;
  let server: ChildProcess;
  let output = '';
  let exited: Promise<number | null>;
  const base = () => `http://127.0.0.1:${port}`;

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'qiraa-start-'));
    await chmod(dir, 0o755);
    dataDir = path.join(dir, 'data');
    port = await freeLoopbackPort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    };
    for (const key of ['DATABASE_URL', 'REDIS_URL', 'EVENTSTORE_URL', 'NODE_ENV']) delete env[key];
    // The README's start command is `npm start`; run its script directly so SIGTERM reaches the server itself
    // (signals through npm: signals.e2e.spec.ts).
    const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
    const [command, ...args] = (pkg.scripts.start as string).replace(/^exec /, '').split(' ');
    server = spawn(command!, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout?.on('data', (chunk) => (output += chunk));
    server.stderr?.on('data', (chunk) => (output += chunk));
    exited = new Promise((resolve) => server.on('exit', (code) => resolve(code)));
    const deadline = Date.now() + 90_000;
    for (;;) {
      const up = await fetch(`${base()}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`server did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  });

  afterAll(async () => {
    if (server.exitCode === null) server.kill('SIGKILL');
    await rm(path.dirname(dataDir), { recursive: true, force: true });
  });

  it('answers /healthz, /readyz, /docs and an unknown /api route with the envelope', async () => {
    expect(await (await fetch(`${base()}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${base()}/readyz`)).status).toBe(200);
    const docs = await fetch(`${base()}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toMatch(/swagger/i);
    const missing = await fetch(`${base()}/api/does-not-exist`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ code: 'NOT_FOUND', message: 'no route GET /api/does-not-exist' });
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(true);
  });

  it('has no users yet, so the first register works', async () => {
    const res = await fetch(`${base()}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'first@qiraa.test',
        password: 'a long enough password',
        fullNameAr: 'المشرف',
        primaryPersona: 'ADMIN',
      }),
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { user: unknown }).user).toMatchObject({
      primaryPersona: 'ADMIN',
      organizationId: null,
    });
  });

  it('writes one structured log line per request', async () => {
    await fetch(`${base()}/healthz`, { headers: { 'x-request-id': 'e2e-request-0001' } });
    await new Promise((r) => setTimeout(r, 100));
    const raw = output.split('\n').filter((l) => l.includes('e2e-request-0001'));
    const line = raw.map((l) => JSON.parse(l));
    expect(line).toHaveLength(1);
    // One reqId key: JSON with a repeated key parses, but log pipelines keep one of the two or reject the line.
    expect(raw[0]!.match(/"reqId"/g)).toHaveLength(1);
    expect(line[0]).toMatchObject({ reqId: 'e2e-request-0001', route: '/healthz', status: 200, method: 'GET' });
    expect(typeof line[0].durationMs).toBe('number');
  });

  it('lets the CLI work on the same embedded database while the server runs', async () => {
    const env: NodeJS.ProcessEnv = { DATA_DIR: dataDir, DATABASE_URL: '' };
    const status = await runCli(['projections', 'status', '--json'], env);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)[0]).toMatchObject({ name: 'audit_log' });
    expect((await fetch(`${base()}/healthz`)).status).toBe(200);
  });

  it('shuts down cleanly on SIGTERM and stops its PostgreSQL', async () => {
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  });
});
