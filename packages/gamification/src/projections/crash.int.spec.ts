import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { postgresEventStore } from '@qiraa/eventstore';
import { catchUp } from '@qiraa/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayReport } from '../replay';
import { gamificationLedgerProjection } from './ledgerProjection';

const WORKER = fileURLToPath(new URL('../testing/ingestWorker.ts', import.meta.url));
const LANES = 3;
const PER_LANE = 60;
const KILLS_PER_LANE = 3;

let db: TestDatabase;
let students: number[];

beforeAll(async () => {
  db = await createTestDatabase();
  await db.sql`insert into organizations (id, name, slug, country, default_locale) values ('org_crashAAAAAAA', 'م', 'crash', 'JO', 'ar-JO')`;
  const rows = await db.sql<{ id: bigint }[]>`
    insert into users (full_name_ar, primary_persona, organization_id)
    select 'طالب ' || g, 'STUDENT', 'org_crashAAAAAAA' from generate_series(1, 4) g returning id`;
  students = rows.map((r) => Number(r.id));
});
afterAll(() => db.drop());

function start(lane: number): { child: ChildProcess; done: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      STUDENTS: students.join(','),
      FROM: String(lane * PER_LANE),
      COUNT: String(PER_LANE),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const done = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) => {
      if (code !== null && code !== 0) console.error(stderr);
      resolve(signal ? null : code);
    }),
  );
  return { child, done };
}

/** Runs a lane to completion, killing its process (SIGKILL) a few times at random points first. */
async function lane(index: number): Promise<number> {
  let kills = 0;
  for (;;) {
    const run = start(index);
    if (kills < KILLS_PER_LANE) {
      const timer = setTimeout(() => run.child.kill('SIGKILL'), 600 + Math.random() * 1500);
      const code = await run.done;
      clearTimeout(timer);
      if (code === null) {
        kills++;
        continue;
      }
      expect(code).toBe(0);
      return kills;
    }
    expect(await run.done).toBe(0);
    return kills;
  }
}

describe('crash test: ingestion and projection processes killed at random points', () => {
  it('ends with every event once and no drift for any student', async () => {
    const kills = await Promise.all(Array.from({ length: LANES }, (_, i) => lane(i)));
    expect(kills.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);

    const store = postgresEventStore(db.sql);
    await catchUp({ sql: db.sql, store }, gamificationLedgerProjection);
    const total = LANES * PER_LANE;
    const [counts] = await db.sql<
      { recorded: number; engines: number; projected: number; dup: number; orphans: number }[]
    >`
      select
        (select count(*) from es_events where event_type = 'MasteryEventRecorded')::int as recorded,
        (select count(distinct data->>'engineEventId') from es_events where event_type = 'MasteryEventRecorded')::int as engines,
        (select count(*) from gam_mastery_events)::int as projected,
        (select count(*) - count(distinct event_id) from es_events)::int as dup,
        (select count(*) from gam_xp_ledger x where not exists (
           select 1 from gam_mastery_events m where m.id = x.mastery_event_id))::int as orphans`;
    expect(counts).toEqual({ recorded: total, engines: total, projected: total, dup: 0, orphans: 0 });
    for (const studentId of students) {
      const report = await replayReport({ sql: db.sql, store }, studentId, new Date());
      expect(report.hasDrift, JSON.stringify(report)).toBe(false);
    }
  }, 240_000);
});
