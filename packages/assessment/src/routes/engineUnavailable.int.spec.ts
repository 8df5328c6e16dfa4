import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { importDemoFiles, setWindows, writeCounts } from '../testing/oralTestKit';
import { importDemoScreeningForms } from '../testing/sittingFixtures';

/**
 * 503 ENGINE_UNAVAILABLE (spec error table): the scoring engine's rules are the cut tables in PostgreSQL. Made
 * unreadable for real in this spec file's own database (the table renamed away), a request that must score
 * answers 503 and records nothing; with the table back, the same request succeeds.
 */
const { t, w } = useTestWorld();
const YEAR = '2026-2027';
let teacher: Client;
let passageId: string;

beforeAll(async () => {
  const sql = t.db.sql;
  await importDemoFiles(sql, ['g2-boy-screening-form.json']);
  await importDemoScreeningForms(sql);
  [{ id: passageId }] = (await sql`
    select id from content_passages where external_id = 'g2-boy-screen-text1'`) as unknown as [{ id: string }];
  await setWindows(sql, w.a.id, YEAR, 'BOY');
  teacher = client(t.app, w.a.teacherToken);
}, 120_000);

async function without<T>(table: string, run: () => Promise<T>): Promise<T> {
  await t.db.sql.unsafe(`alter table ${table} rename to ${table}_gone`);
  try {
    return await run();
  } finally {
    await t.db.sql.unsafe(`alter table ${table}_gone rename to ${table}`);
  }
}

/** Runs with the read cuts of oral_text, grade 2, BOY corrupt (a cut point with an unknown band and no number). */
async function withCorruptReadCuts<T>(run: () => Promise<T>): Promise<T> {
  const sql = t.db.sql;
  const saved = await sql<{ version: string; accuracy_cuts: unknown }[]>`
    select version, accuracy_cuts from asm_read_cuts where cell = 'oral_text' and grade = 2 and evidence_window = 'BOY'`;
  expect(saved.length).toBeGreaterThan(0);
  await sql`
    update asm_read_cuts set accuracy_cuts = '[{"band":"excellent","min":"ninety"}]'::jsonb
    where cell = 'oral_text' and grade = 2 and evidence_window = 'BOY'`;
  try {
    return await run();
  } finally {
    for (const row of saved)
      await sql`
        update asm_read_cuts set accuracy_cuts = ${sql.json(row.accuracy_cuts as never)}
        where version = ${row.version} and cell = 'oral_text' and grade = 2 and evidence_window = 'BOY'`;
  }
}

describe('ENGINE_UNAVAILABLE', () => {
  it('a stop of an oral reading with a corrupt read-cut row: 503 at request time, nothing recorded; repaired: scored', async () => {
    const started = await teacher.post('/api/orf/assessments', { studentId: w.a.studentId, passageId });
    expect(started.statusCode, started.body).toBe(201);
    const id = started.json().id as string;
    const stop = () => teacher.post(`/api/orf/assessments/${id}/stop`, { lastWordIndex: 19, elapsedSeconds: 60 });
    const before = await writeCounts(t.db.sql);
    const refused = await withCorruptReadCuts(stop);
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.json()).toEqual({ code: 'ENGINE_UNAVAILABLE', message: expect.any(String) });
    expect(await writeCounts(t.db.sql)).toEqual(before);
    const scored = await stop();
    expect(scored.statusCode, scored.body).toBe(200);
    expect(scored.json()).toMatchObject({ status: 'stopped', accuracyBand: expect.any(String) });
  });

  it('a stop of an oral reading with the read cuts unreadable: 503, nothing recorded; with them back: scored', async () => {
    const started = await teacher.post('/api/orf/assessments', { studentId: w.a.studentId, passageId });
    expect(started.statusCode, started.body).toBe(201);
    const id = started.json().id as string;
    const stop = () => teacher.post(`/api/orf/assessments/${id}/stop`, { lastWordIndex: 19, elapsedSeconds: 60 });
    const before = await writeCounts(t.db.sql);
    const refused = await without('asm_read_cuts', stop);
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.json()).toEqual({ code: 'ENGINE_UNAVAILABLE', message: expect.any(String) });
    expect(await writeCounts(t.db.sql)).toEqual(before);
    const scored = await stop();
    expect(scored.statusCode, scored.body).toBe(200);
    expect(scored.json()).toMatchObject({ status: 'stopped', accuracyBand: expect.any(String) });
  });

  it('a diagnostic sitting with the measure cut versions unreadable: 503, no sitting opened', async () => {
    const before = await writeCounts(t.db.sql);
    const start = () => client(t.app, w.a.studentToken).post('/api/diagnostic-sessions/start');
    const refused = await without('asm_measure_cut_versions', start);
    expect([refused.statusCode, refused.json().code]).toEqual([503, 'ENGINE_UNAVAILABLE']);
    expect(await writeCounts(t.db.sql)).toEqual(before);
    expect((await start()).statusCode).toBe(200);
  });

  it('a sitting whose pinned cut version is gone: its state answers 503 to staff; with the version back, scored', async () => {
    const started = await client(t.app, w.a.studentToken).post('/api/diagnostic-sessions/start');
    expect(started.statusCode, started.body).toBe(200);
    const id = started.json().sittingId as string;
    expect(id).toEqual(expect.any(String));
    const state = () => teacher.get(`/api/diagnostic-sessions/${id}/state`);
    expect((await state()).statusCode).toBe(200);
    const sql = t.db.sql;
    const [version] = await sql<Record<string, unknown>[]>`
      select * from asm_measure_cut_versions where version = 'global-2026.1'`;
    const cuts = await sql<Record<string, unknown>[]>`select * from asm_measure_cuts where version = 'global-2026.1'`;
    await sql`delete from asm_measure_cuts where version = 'global-2026.1'`;
    await sql`delete from asm_measure_cut_versions where version = 'global-2026.1'`;
    let refused: Awaited<ReturnType<typeof state>>;
    try {
      refused = await state();
    } finally {
      await sql`insert into asm_measure_cut_versions ${sql(version!)}`;
      await sql`insert into asm_measure_cuts ${sql(cuts)}`;
    }
    expect([refused.statusCode, refused.json().code], refused.body).toEqual([503, 'ENGINE_UNAVAILABLE']);
    const scored = await state();
    expect(scored.statusCode, scored.body).toBe(200);
    expect(scored.json().measures.length).toBeGreaterThan(0);
  });
});
