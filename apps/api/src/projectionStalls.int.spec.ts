import { createTestApp, TEST_JWT_SECRET, type TestApp } from '@qiraa/app/testing';
import { defineContext } from '@qiraa/kernel';
import { defineProjection } from '@qiraa/projections';
import { contexts, loadConfig, openRuntime } from '@qiraa/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Stalls are visible (issue 23): /readyz names a projection whose runs keep failing in this process, and
 * one whose oldest unprojected event is older than PROJECTION_STALL_SECONDS, and is ready again once it
 * moves; a failed run reaches the runtime's error log whatever the log level.
 */
const PROBE = 'StallProbeRecorded';
let broken = true;
const probeContext = defineContext({
  name: 'stall-probe',
  projections: [
    defineProjection({
      name: 'stall_probe',
      version: 1,
      handles: [PROBE],
      tables: [],
      async applyBatch() {
        if (broken) throw new Error('probe read model is broken');
      },
    }),
  ],
  routes: () => async () => {},
});

interface Readiness {
  status: string;
  checks: { name: string; ok: boolean; detail?: string }[];
}
const readiness = async (t: TestApp) => {
  const res = await t.app.inject({ method: 'GET', url: '/readyz' });
  const body = res.json() as Readiness;
  return { code: res.statusCode, projections: body.checks.find((c) => c.name === 'projections') };
};

describe('a projection that keeps failing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ extraContexts: [probeContext], env: { PROJECTION_SWEEP_MS: '100' } });
  }, 60_000);
  afterAll(() => t?.close());

  it('is named by /readyz (503) until a run succeeds again', async () => {
    broken = true;
    await t.runtime.store.append('stall-probe-1', [{ type: PROBE, data: {} }]);
    await t.runtime.projector.start();
    await expect
      .poll(() => readiness(t), { timeout: 10_000, interval: 50 })
      .toMatchObject({
        code: 503,
        projections: {
          ok: false,
          detail: expect.stringMatching(/^stall_probe failed \d+ runs in a row .*: probe read model is broken$/),
        },
      });
    broken = false;
    await expect
      .poll(() => readiness(t), { timeout: 10_000, interval: 50 })
      .toMatchObject({ code: 200, projections: { ok: true } });
  });

  it('reaches the error log of the runtime (the apps write it at error level, at any LOG_LEVEL)', async () => {
    broken = true;
    const errors: string[] = [];
    const debug: string[] = [];
    const runtime = await openRuntime(
      loadConfig({ DATABASE_URL: t.db.url, LOG_LEVEL: 'info', NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET }),
      {
        role: 'api',
        contexts: [...contexts, probeContext],
        log: (line) => debug.push(line),
        logError: (line) => errors.push(line),
      },
    );
    try {
      await runtime.store.append('stall-probe-3', [{ type: PROBE, data: {} }]);
      await runtime.projector.start();
      await expect
        .poll(() => errors, { timeout: 10_000 })
        .toContain('projection stall_probe failed: probe read model is broken');
      expect(debug.filter((line) => line.includes('stall_probe'))).toEqual([]);
    } finally {
      broken = false;
      await runtime.close();
    }
  });
});

describe('a projection that lags', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The projector is not started: nothing moves the probe's checkpoint but the explicit catch-up below.
    t = await createTestApp({ extraContexts: [probeContext], env: { PROJECTION_STALL_SECONDS: '1' } });
  }, 60_000);
  afterAll(() => t?.close());

  it('is named by /readyz once its oldest unprojected event is older than the bound, and ready after it catches up', async () => {
    broken = false;
    await t.runtime.store.append('stall-probe-2', [{ type: PROBE, data: {} }]);
    expect(await readiness(t)).toMatchObject({ code: 200, projections: { ok: true } });
    await expect
      .poll(() => readiness(t), { timeout: 10_000, interval: 200 })
      .toMatchObject({
        code: 503,
        projections: {
          ok: false,
          detail: expect.stringMatching(/stall_probe lags: its oldest unprojected event is \d+ s old/),
        },
      });
    await t.runtime.projector.catchUp();
    expect(await readiness(t)).toMatchObject({ code: 200, projections: { ok: true } });
  });
});
