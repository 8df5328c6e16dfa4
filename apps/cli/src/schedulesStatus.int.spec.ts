import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './testing/runCli';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.sql`
    insert into organizations (id, name, slug, country, default_locale, time_zone)
    values ('org_cli_s', 'S', 'cli-sched', 'JO', 'ar', 'Asia/Amman')`;
  await db.sql`
    insert into schedule_runs (schedule, tick, due_at, claimed_by, completed_at, outcome)
    values ('training.end-of-school-day', 'Asia/Amman 2026-11-26', '2026-11-26T17:00:00Z', 'test', now(),
            '{"endedDays": 4}')`;
});
afterAll(() => db.drop());

describe('qiraa schedules status', () => {
  it('lists every schedule with its last run and the next due moment by the shifted clock', async () => {
    const run = await runCli(
      ['schedules', 'status', '--json'],
      { DATABASE_URL: db.url, QIRAA_CLOCK_SHIFT_DAYS: '3' },
      { timeoutMs: 170_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    const statuses = JSON.parse(run.stdout) as {
      name: string;
      lastTick: string | null;
      lastOutcome: unknown;
      nextDueAt: string | null;
    }[];
    expect(statuses.map((s) => s.name).sort()).toEqual([
      'auditing.verify-log',
      'identity.expired-secrets',
      'training.end-of-school-day',
      'training.support-review',
      'training.window-close',
    ]);
    const endOfDay = statuses.find((s) => s.name === 'training.end-of-school-day')!;
    expect(endOfDay).toMatchObject({ lastTick: 'Asia/Amman 2026-11-26', lastOutcome: { endedDays: 4 } });
    // Due at 20:00 in Amman (17:00 UTC) on a school day, three days ahead of the wall clock at most a week on.
    const next = Date.parse(endOfDay.nextDueAt!);
    expect(new Date(next).getUTCHours()).toBe(17);
    expect(next).toBeGreaterThan(Date.now() + 2 * 86_400_000);
    expect(next).toBeLessThan(Date.now() + 7 * 86_400_000);
  }, 180_000);
});
