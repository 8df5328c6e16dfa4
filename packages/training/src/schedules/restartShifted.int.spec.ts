import { buildApp } from '@qiraa/app';
import { buildWorld, client, TEST_JWT_SECRET } from '@qiraa/app/testing';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { loadConfig, openRuntime } from '@qiraa/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTrainingPack } from '../testing';

const DAY_MS = 86_400_000;
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

/** The service as `npm start` composes it, on the spec's database, with extra settings. */
async function service(env: NodeJS.ProcessEnv = {}) {
  const config = loadConfig({ DATABASE_URL: db.url, NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET, ...env });
  const runtime = await openRuntime(config, { role: 'api' });
  const app = await buildApp(runtime, { logLevel: 'silent', trustProxy: false });
  await app.ready();
  return {
    app,
    runtime,
    async close() {
      await app.close();
      await runtime.close();
    },
  };
}

describe('restart on the same data with the clock moved (QIRAA_CLOCK_SHIFT_DAYS)', () => {
  it('a training day left open ends window_closed within seconds of a start three days later', async () => {
    const today = await service();
    const w = await buildWorld(today);
    await importTrainingPack(db.sql);
    const opened = await client(today.app, w.a.studentToken).get('/api/practice/queues/current/next-item');
    expect(opened.statusCode, opened.body).toBe(200);
    const dayId = opened.json().trainingSessionId as string;
    // The child walks away; the service stops before the end of the school day.
    await today.runtime.scheduler.stop();
    await today.close();

    const later = await service({ QIRAA_CLOCK_SHIFT_DAYS: '3' });
    try {
      expect(later.runtime.clock.now().getTime() - Date.now()).toBeGreaterThan(3 * DAY_MS - 60_000);
      const started = Date.now();
      await later.runtime.scheduler.start();
      let row: { end_reason: string | null; ended_at: Date | null } | undefined;
      while (Date.now() - started < 15_000) {
        [row] = await db.sql<{ end_reason: string | null; ended_at: Date | null }[]>`
          select end_reason, ended_at from trn_days where day_id = ${dayId}`;
        if (row?.end_reason) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(row?.end_reason).toBe('window_closed');
      // Ended at a school day's end by the shifted clock: after the wall clock, within the three days.
      expect(row!.ended_at!.getTime()).toBeGreaterThan(Date.now() - DAY_MS);
      expect(row!.ended_at!.getTime()).toBeLessThanOrEqual(later.runtime.clock.now().getTime());
      // The teacher sees it ended through the API of the restarted service.
      const seen = await client(later.app, w.a.teacherToken).get(
        `/api/practice/students/${w.a.studentId}/training-sessions/${dayId}`,
      );
      expect(seen.statusCode, seen.body).toBe(200);
      expect(seen.json()).toMatchObject({ ended: true, endReason: 'window_closed' });
      const status = await later.runtime.scheduler.status();
      expect(status.find((s) => s.name === 'training.end-of-school-day')!.lastOutcome).toEqual({ endedDays: 1 });
    } finally {
      await later.close();
    }
  }, 240_000);
});
