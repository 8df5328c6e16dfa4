import { ASSESSMENT_PROJECTIONS } from '@qiraa/assessment';
import type { TestDatabase } from '@qiraa/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoSeededDatabase } from './testing/demoSeededDatabase';
import { runCli } from './testing/runCli';
import { runCliInProcess } from './testing/runCliInProcess';

let db: TestDatabase;
let env: NodeJS.ProcessEnv;

/** The seeded evidence: sittings done, open, stopped by a window close and voided midway; readings; voids. */
beforeAll(async () => {
  // A clone of the run's demo seed (made once per run by a real `qiraa seed-demo`).
  const { db: seededDb, seed } = await createDemoSeededDatabase();
  db = seededDb;
  env = { DATABASE_URL: db.url };
  expect(seed.code, seed.stderr).toBe(0);
}, 300_000);
afterAll(() => db.drop());

/** Every row of a table, every column, in one stable order (the whole row as text). */
const rowsOf = (table: string) => db.sql.unsafe(`select * from ${table} t order by t::text`);

/** Whether the live table is the one the rebuild swapped in (a new relation), not the old one kept. */
const relationOf = async (table: string) =>
  (await db.sql<{ oid: number }[]>`select ${table}::regclass::oid as oid`)[0]!.oid;

const byName = ASSESSMENT_PROJECTIONS.map((p) => [p.name, p.tables] as const);

describe('qiraa projections rebuild: the assessment read models', () => {
  it('has seeded evidence of every kind to rebuild', async () => {
    const [kinds] = await db.sql<Record<string, number>[]>`
      select count(*) filter (where kind = 'digital_sitting' and status = 'done' and void_id is null)::int as done,
             count(*) filter (where status = 'in_progress' and void_id is null)::int as open,
             count(*) filter (where end_reason = 'window_closed')::int as window_closed,
             count(*) filter (where end_reason = 'voided' and void_id is not null)::int as voided_open,
             count(*) filter (where void_id is not null)::int as voids,
             count(*) filter (where supersedes_void_id is not null)::int as replacements,
             count(*) filter (where kind = 'oral_word_list')::int as word_lists
      from asm_attempts`;
    expect(kinds).toEqual({
      // 8 screenings of seedDemoAssessment, 8 re-diagnostics of the parents' children and 2 of هند (seedDemoParents),
      // the grade-1 cluster twin of أحمد (seedDemo.ts): 18.
      done: 18,
      open: 2,
      window_closed: 1,
      voided_open: 1,
      voids: 3,
      replacements: 1,
      word_lists: 9, // 9 with هند's familiar-words read
    });
    const [sittings] = await db.sql`select count(*)::int as n from asm_sittings`;
    // 11 window sittings (هند's included) and 10 re-diagnostics (the parents' 4 children and هند, two each).
    expect(sittings).toEqual({ n: 21 });
  });

  it.each(byName)(
    '%s: rebuilt by name to exactly the rows it had, after rows were lost and changed',
    async (name, tables) => {
      const before = new Map<string, unknown[]>();
      for (const table of tables) before.set(table, [...(await rowsOf(table))]);
      const relations = await Promise.all(tables.map(relationOf));
      // Damage behind the service: one row gone, every other row's bookkeeping changed.
      for (const table of tables) {
        await db.sql.unsafe(
          `delete from ${table} where attempt_id = (select attempt_id from ${table} order by attempt_id limit 1)`,
        );
        await db.sql.unsafe(`update ${table} set started_at = started_at + interval '1 day'`);
      }

      const run = await runCliInProcess(['projections', 'rebuild', name, '--batch', '7'], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^rebuilt ${name}: [1-9]\\d* events in`, 'm'));
      for (const table of tables) {
        expect(before.get(table)!.length, table).toBeGreaterThan(0);
        expect([...(await rowsOf(table))], table).toEqual(before.get(table));
      }
      expect(await Promise.all(tables.map(relationOf))).not.toEqual(relations);
    },
  );

  it('qiraa projections rebuild (every projection) leaves the assessment tables as they were', async () => {
    const tables = ASSESSMENT_PROJECTIONS.flatMap((p) => p.tables);
    const before = await Promise.all(tables.map(async (t) => [...(await rowsOf(t))]));
    const run = await runCli(['projections', 'rebuild'], env);
    expect(run.code, run.stderr).toBe(0);
    for (const { name } of ASSESSMENT_PROJECTIONS) expect(run.stdout).toMatch(new RegExp(`^rebuilt ${name}: `, 'm'));
    const after = await Promise.all(tables.map(async (t) => [...(await rowsOf(t))]));
    expect(after).toEqual(before);
  }, 120_000);
});
