import { recordAuditEvent } from '@qiraa/audit';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { loadConfig, openRuntime, type Runtime } from '@qiraa/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, runWorker } from './runWorker';

const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl) console.warn('[worker] skipped: TEST_REDIS_URL is not set');

describe.skipIf(!redisUrl)('apps/worker with REDIS_URL (real Redis and PostgreSQL)', () => {
  let db: TestDatabase;
  let api: Runtime;
  let worker: RunningWorker;

  beforeAll(async () => {
    db = await createTestDatabase();
    const config = loadConfig({
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: `qiraa-worker-test-${process.pid}-${Date.now()}`,
      PROJECTION_SWEEP_MS: '60000',
    });
    api = await openRuntime(config, { role: 'api' });
    await api.projector.start();
    worker = await runWorker(config, () => {});
  });

  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await db?.drop();
  });

  it('runs the API side as BullMQ producer and projects in the worker', async () => {
    expect(api.projector.mode).toBe('bullmq');
    const { auditId } = await recordAuditEvent(api.store, {
      eventType: 'probe',
      organizationId: 'org_w',
      actorUserId: 1,
    });
    await expect
      .poll(async () => (await db.sql`select organization_id from audit_log where id = ${auditId}`)[0], {
        timeout: 10_000,
        interval: 50,
      })
      .toEqual({ organization_id: 'org_w' });
  });

  it('refuses to start without REDIS_URL', async () => {
    await expect(runWorker(loadConfig({ DATABASE_URL: db.url }), () => {})).rejects.toThrow(/REDIS_URL is required/);
  });
});
