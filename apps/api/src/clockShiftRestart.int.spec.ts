import { buildApp } from '@qiraa/app';
import { buildWorld, client, TEST_JWT_SECRET } from '@qiraa/app/testing';
import { freeLoopbackPort } from '@qiraa/db';
import { createTestDatabase, entryArgs, type TestDatabase } from '@qiraa/db/testing';
import { loadConfig, openRuntime } from '@qiraa/runtime';
import { importTrainingPack } from '@qiraa/training/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, type Started, start, waitForHttp } from './testing/processes';

const DAY_MS = 86_400_000;
let db: TestDatabase;
let server: Started | undefined;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await db.drop();
});

/**
 * Issue 22, "one clock": the service restarted on the same data a few days later, as an outsider would do it:
 * today's data written in this process (the world, a child who opens a training day and walks away), then the
 * real API process (`npm start`'s entry) started with `QIRAA_CLOCK_SHIFT_DAYS=3` and read only over HTTP. Its
 * scheduler catches up at start, so the day left open ends `window_closed` within seconds. The in-process twin,
 * with the scheduler's status: packages/training/src/schedules/restartShifted.int.spec.ts.
 */
describe('the API process started three days later on the same data (black box)', () => {
  it('ends the training day left open, and opens the next one by the shifted clock', async () => {
    const config = loadConfig({ DATABASE_URL: db.url, NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET });
    const runtime = await openRuntime(config, { role: 'api' });
    const app = await buildApp(runtime, { logLevel: 'silent', trustProxy: false });
    await app.ready();
    const w = await buildWorld({ app });
    await importTrainingPack(db.sql);
    const opened = await client(app, w.a.studentToken).get('/api/practice/queues/current/next-item');
    expect(opened.statusCode, opened.body).toBe(200);
    const dayId = opened.json().trainingSessionId as string;
    await app.close();
    await runtime.close();

    const port = await freeLoopbackPort();
    const base = `http://127.0.0.1:${port}`;
    server = start(
      process.execPath,
      entryArgs('api'),
      cleanEnv({
        DATABASE_URL: db.url,
        JWT_SECRET: TEST_JWT_SECRET,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        QIRAA_CLOCK_SHIFT_DAYS: '3',
      }),
    );
    await waitForHttp(`${base}/healthz`, server);
    const get = (path: string) => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${w.a.teacherToken}` } });
    const deadline = Date.now() + 30_000;
    type DayView = { ended: boolean; endReason: string | null };
    let seen: DayView | undefined;
    while (Date.now() < deadline) {
      const res = await get(`/api/practice/students/${w.a.studentId}/training-sessions/${dayId}`);
      expect(res.status).toBe(200);
      seen = (await res.json()) as DayView;
      if (seen?.ended) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(seen, server.output()).toMatchObject({ ended: true, endReason: 'window_closed' });
    // The child's next day is a day of the shifted calendar: opened by the clock three days on.
    const child = await fetch(`${base}/api/practice/queues/current/next-item`, {
      headers: { authorization: `Bearer ${w.a.studentToken}` },
    });
    expect(child.status).toBe(200);
    const next = (await child.json()) as { trainingSessionId: string | null };
    expect(next.trainingSessionId).not.toBe(dayId);
    const [row] = await db.sql<
      { opened_at: Date }[]
    >`select opened_at from trn_days where day_id = ${next.trainingSessionId}`;
    expect(row!.opened_at.getTime()).toBeGreaterThan(Date.now() + 3 * DAY_MS - 120_000);
  }, 180_000);
});
