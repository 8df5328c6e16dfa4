import { readFile } from 'node:fs/promises';
import { recordAuditEvent } from '@qiraa/audit';
import { beforeAll, describe, expect, it } from 'vitest';
import { openapiDocument, serializeOpenapi } from './openapiDocument';
import { createTestApp } from './testing/testApp';
import { useTestApp } from './testing/useTestWorld';

const t = useTestApp();
beforeAll(async () => {
  await t.runtime.projector.start();
});

describe('operational endpoints', () => {
  it('answers /healthz', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz with each check', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      checks: [
        { name: 'database', ok: true },
        { name: 'migrations', ok: true },
      ],
    });
  });

  it('serves Swagger UI at /docs and the document at /docs/json', async () => {
    const ui = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toMatch(/text\/html/);
    const doc = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(doc.json()).toMatchObject({ openapi: '3.0.3', paths: { '/healthz': {}, '/readyz': {} } });
  });

  it('exports request counts by route and projection lag at /metrics', async () => {
    await t.app.inject({ method: 'GET', url: '/healthz' });
    await recordAuditEvent(t.runtime.store, { eventType: 'probe', organizationId: null, actorUserId: null });
    const metrics = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    // The in-process projector may be mid-run; the gauge reads the lag at scrape time.
    await expect
      .poll(metrics, { timeout: 5000, interval: 20 })
      .toMatch(/qiraa_projection_lag_events\{projection="audit_log"\} 0/);
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/qiraa_http_requests_total\{method="GET",route="\/healthz",status="200"\} [1-9]/);
    expect(res.body).toMatch(/qiraa_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/healthz"\}/);
  });

  it('projects audit events appended through the store into audit_log in-process', async () => {
    const { auditId } = await recordAuditEvent(t.runtime.store, {
      eventType: 'class_login_code_rotated',
      organizationId: 'org_a',
      actorUserId: 7,
      targetClassId: 'cls_1',
      detail: { detail: 'manual' },
    });
    await expect
      .poll(async () => (await t.db.sql`select event_type, detail from audit_log where id = ${auditId}`)[0], {
        timeout: 5000,
        interval: 20,
      })
      .toEqual({ event_type: 'class_login_code_rotated', detail: { detail: 'manual' } });
  });
});

describe('docs/openapi.json', () => {
  it('is the document the route schemas generate (run `npm run openapi` after changing a route)', async () => {
    const committed = await readFile(new URL('../../../docs/openapi.json', import.meta.url), 'utf8');
    expect(committed).toBe(serializeOpenapi(await openapiDocument()));
  });
});

describe('/readyz with a queue configured', () => {
  it('reports the queue and answers 503 while it is unreachable', async () => {
    const down = await createTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const res = await down.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      const body = res.json();
      expect(body.status).toBe('not_ready');
      expect(body.checks.find((c: { name: string }) => c.name === 'queue')).toMatchObject({ ok: false });
      expect(body.checks.find((c: { name: string }) => c.name === 'database')).toEqual({ name: 'database', ok: true });
    } finally {
      await down.close();
    }
  });

  it.skipIf(!process.env.TEST_REDIS_URL)('reports a reachable queue as ready', async () => {
    const up = await createTestApp({ env: { REDIS_URL: process.env.TEST_REDIS_URL } });
    try {
      const res = await up.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(200);
      expect(res.json().checks).toContainEqual({ name: 'queue', ok: true });
    } finally {
      await up.close();
    }
  });
});
