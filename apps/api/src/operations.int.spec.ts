import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '@qiraa/app';
import { createTestApp, TEST_METRICS_TOKEN, useTestApp } from '@qiraa/app/testing';
import { recordAuditEvent } from '@qiraa/audit';
import { freeLoopbackPort, inTransaction } from '@qiraa/db';
import { beforeAll, describe, expect, it } from 'vitest';
import { openapiDocument, serializeOpenapi } from './openapiDocument';

const t = useTestApp();

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.destroy() !== undefined));
    socket.once('error', () => resolve(false));
  });

/** Until a private server accepts connections (bounded: 10 s). */
async function waitFor(ready: () => Promise<boolean>) {
  for (let i = 0; i < 100; i += 1) {
    if (await ready()) return;
    await sleep(100);
  }
  throw new Error('the private Redis did not start within 10 s');
}
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
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      checks: [
        { name: 'database', ok: true },
        { name: 'migrations', ok: true },
        { name: 'projections', ok: true },
        { name: 'reactions', ok: true },
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

  it('exports request counts by route, projection lag, pool waits and the Node defaults at /metrics', async () => {
    await t.app.inject({ method: 'GET', url: '/healthz' });
    await recordAuditEvent(t.runtime.store, { eventType: 'probe', organizationId: null, actorUserId: null });
    // A transaction on the app's pool, as every write path opens one: its wait for a connection is observed.
    await inTransaction(t.runtime.sql, async (uow) => uow.sql`select 1`);
    const scrape = () =>
      t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
    // The in-process projector may be mid-run; the gauges read the lag at scrape time.
    await expect
      .poll(async () => (await scrape()).body, { timeout: 5000, interval: 20 })
      .toMatch(/qiraa_projection_lag_events\{projection="audit_log"\} 0/);
    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/qiraa_http_requests_total\{method="GET",route="\/healthz",status="200"\} [1-9]/);
    expect(res.body).toMatch(/qiraa_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/healthz"\}/);
    expect(res.body).toMatch(/^qiraa_projection_lag_seconds\{projection="audit_log"\} 0$/m);
    expect(res.body).toMatch(/^qiraa_db_pool_wait_seconds_count\{outcome="reserved"\} [1-9]/m);
    // prom-client's defaults: process and Node figures.
    expect(res.body).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(res.body).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(res.body).toMatch(/^nodejs_heap_size_used_bytes \d/m);
  });

  it('keeps /metrics closed without the METRICS_TOKEN bearer (401), and absent without a token configured (404)', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ code: 'TOKEN_MISSING' });
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TEST_METRICS_TOKEN.slice(0, -1)}x` },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'TOKEN_INVALID' });
    expect(wrong.body).not.toMatch(/qiraa_/);
    const closed = await buildApp(t.runtime, { logLevel: 'silent' });
    try {
      const absent = await closed.inject({ method: 'GET', url: '/metrics' });
      expect(absent.statusCode).toBe(404);
      expect(absent.json()).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await closed.close();
    }
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

/** /readyz once it answers `status` (within 10 s), its body; fails with the last body otherwise. */
async function readyzOnce(
  app: { inject: (o: { method: 'GET'; url: string }) => Promise<{ statusCode: number; body: string }> },
  status: number,
) {
  let last = { statusCode: 0, body: '' };
  await expect
    .poll(
      async () => {
        last = await app.inject({ method: 'GET', url: '/readyz' });
        return last.statusCode;
      },
      { timeout: 10_000, interval: 200 },
    )
    .toBe(status);
  return JSON.parse(last.body);
}

describe('/readyz with a queue configured', () => {
  it('reports the queue and answers 200 degraded once it becomes unreachable (writes keep working; issue 23)', async () => {
    // A private Redis on a free port (never the machine's own), stopped under the running app.
    const port = await freeLoopbackPort();
    const redis = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    const stopped = new Promise((resolve) => redis.once('exit', resolve));
    try {
      await waitFor(() => accepts(port));
      const down = await createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
      try {
        redis.kill('SIGKILL');
        await stopped;
        // Each readiness check has 800 ms; beside other test workers a cold app's first answer may miss it, so
        // the test waits for the state it expects (a wrong state, e.g. not_ready, never turns into it).
        const body = await readyzOnce(down.app, 200);
        expect(body.status).toBe('degraded');
        expect(body.checks.find((c: { name: string }) => c.name === 'queue')).toMatchObject({ ok: false });
        expect(body.checks.find((c: { name: string }) => c.name === 'database')).toEqual({
          name: 'database',
          ok: true,
        });
      } finally {
        await down.close();
      }
    } finally {
      redis.kill('SIGKILL');
    }
  });

  it.skipIf(!process.env.TEST_REDIS_URL)('reports a reachable queue as ready', async () => {
    const up = await createTestApp({ env: { REDIS_URL: process.env.TEST_REDIS_URL } });
    try {
      const body = await readyzOnce(up.app, 200);
      expect(body.checks).toContainEqual({ name: 'queue', ok: true });
    } finally {
      await up.close();
    }
  });
});
