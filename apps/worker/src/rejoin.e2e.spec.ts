import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordAuditEvent } from '@qiraa/audit';
import { type EmbeddedServer, startEmbeddedPostgres } from '@qiraa/db';
import { entryArgs } from '@qiraa/db/testing';
import { loadConfig, openRuntime } from '@qiraa/runtime';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const redisUrl = process.env.TEST_REDIS_URL;

/**
 * The real worker process joined to an embedded PostgreSQL another process owns (here the test, as the API
 * would): the owner restarts it on another port, and the worker follows it and projects there (issue 23:
 * it dialled the old port forever).
 */
describe.skipIf(!redisUrl)('a worker joined to the embedded PostgreSQL', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => {});
  });

  it('re-joins it when its owner restarts it on another port, and projects there', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'qiraa-rejoin-'));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    await chmod(dataDir, 0o755); // PostgreSQL runs as its own user when the tests run as root
    let cluster: EmbeddedServer = await startEmbeddedPostgres(path.join(dataDir, 'pg'));
    cleanup.push(() => cluster.stop());
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: `qiraa-rejoin-${process.pid}-${Date.now()}`,
      LOG_LEVEL: 'info',
    };
    for (const key of ['DATABASE_URL', 'EVENTSTORE_URL', 'NODE_ENV']) delete env[key];
    const worker = spawn(process.execPath, entryArgs('worker'), {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    worker.stdout.on('data', (chunk) => (output += chunk));
    worker.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => worker.on('exit', resolve));
    cleanup.push(async () => {
      worker.kill('SIGTERM');
      await exited;
    });
    await expect.poll(() => output, { timeout: 90_000, interval: 200 }).toContain('worker ready');

    const before = cluster.port;
    do {
      await cluster.stop();
      cluster = await startEmbeddedPostgres(path.join(dataDir, 'pg'));
    } while (cluster.port === before);
    await expect
      .poll(() => output, { timeout: 60_000, interval: 200 })
      .toContain(`moved from port ${before} to ${cluster.port}`);
    expect(worker.exitCode).toBeNull();

    // The API side, joined to the cluster where it runs now: its wake-up reaches the re-joined worker.
    const api = await openRuntime(loadConfig(env), { role: 'api', migrate: false });
    cleanup.push(() => api.close());
    await api.projector.start();
    const { auditId } = await recordAuditEvent(api.store, {
      eventType: 'probe',
      organizationId: 'org_r',
      actorUserId: 1,
    });
    // A failure names what the worker said: a lost wake-up, a job that failed, or a query that never answered.
    try {
      await expect
        .poll(async () => (await api.sql`select organization_id from audit_log where id = ${auditId}`)[0], {
          timeout: 60_000,
          interval: 100,
        })
        .toEqual({ organization_id: 'org_r' });
    } catch (error) {
      throw new Error(`the worker did not project the probe; its output:\n${output.slice(-8000)}`, { cause: error });
    }
    expect(output).not.toMatch(/ECONNREFUSED[\s\S]*ECONNREFUSED[\s\S]*ECONNREFUSED[\s\S]*ECONNREFUSED/);
  }, 240_000); // a worker start, a cluster restart and a projection run, each waited for beside other test workers
});
