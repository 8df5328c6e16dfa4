import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './testing/runCli';
import { runCliInProcess } from './testing/runCliInProcess';

let db: TestDatabase;
let dir: string;
let studentId: number;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'qiraa-ingest-'));
  await db.sql`insert into organizations (id, name, slug, country, default_locale) values ('org_ingestAAAAAA', 'م', 'ingest', 'JO', 'ar-JO')`;
  const [row] = await db.sql<{ id: bigint }[]>`
    insert into users (full_name_ar, primary_persona, organization_id) values ('طالب', 'STUDENT', 'org_ingestAAAAAA') returning id`;
  studentId = Number(row!.id);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await db.drop();
});

const event = (n: number, over: Record<string, unknown> = {}) =>
  JSON.stringify({
    kind: 'mastery_event',
    engineEventId: `file-${n}`,
    studentId,
    sourceKind: 'subskill_state_up',
    occurredAt: '2026-11-02T08:00:00Z',
    sessionId: 's-file',
    ...over,
  });

describe('qiraa mastery ingest', () => {
  it('records each line once, skips halt signals, refuses bad lines with their numbers and exit 1', async () => {
    const file = path.join(dir, 'events.ndjson');
    const lines = [
      event(1),
      event(2, { sourceKind: 'band_progression' }),
      JSON.stringify({ kind: 'halt', engineEventId: 'halt-1', studentId, signal: 'do_not_decide_yet' }),
      '{ not json',
      event(3, { sourceKind: 'minutes_played' }),
      event(1),
    ];
    await writeFile(file, `${lines.join('\n')}\n`);
    const run = await runCli(['mastery', 'ingest', file], { DATABASE_URL: db.url });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/recorded 2, duplicates 1, halt signals 1 \(nothing written\), refused 2/);
    expect(run.stderr).toMatch(/line 4: not valid JSON/);
    expect(run.stderr).toMatch(/line 5: sourceKind/);
    const [n] = await db.sql`select count(*)::int as n from gam_mastery_events where student_id = ${studentId}`;
    expect(n).toEqual({ n: 2 });
  });

  it('stores nothing twice when a clean file is ingested again (exit 0)', async () => {
    const file = path.join(dir, 'clean.ndjson');
    await writeFile(file, [event(10), event(11)].join('\n'));
    expect((await runCliInProcess(['mastery', 'ingest', file], { DATABASE_URL: db.url })).stdout).toMatch(
      /recorded 2, duplicates 0/,
    );
    const again = await runCliInProcess(['mastery', 'ingest', file], { DATABASE_URL: db.url });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/recorded 0, duplicates 2/);
  });

  it('answers a missing file with exit 1 (a failure; 2 is for usage errors)', async () => {
    const run = await runCliInProcess(['mastery', 'ingest', path.join(dir, 'nope.ndjson')], { DATABASE_URL: db.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot read/);
  });
});
