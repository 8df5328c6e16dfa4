import { type AnySql, pendingMigrations } from '@qiraa/db';
import type { TestDatabase } from '@qiraa/db/testing';
import { catchUp, type Projection, rebuildProjection } from '@qiraa/projections';
import { loadConfig, openRuntime, type Runtime } from '@qiraa/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoSeededDatabase } from './testing/demoSeededDatabase';

/** The seed's progress on stderr ("seed-demo [3/12] …", "seed-demo: done in 19.3 s"): all it may print there. */
const SEED_PROGRESS = /^seed-demo(?: \[\d+\/\d+\] |: done in )/;

/**
 * Every read model rebuilds to exactly what the live projector built, at any batch size: a batch boundary
 * may fall anywhere (one student's day ending and the next opening in one batch, a row created and changed in
 * one batch, or split across two). Over the demo seed's events, seeded once per run (demoSeededDatabase.ts).
 */
const BATCH_SIZES = [1, 2, 7, 50, 100, 1000];

let db: TestDatabase;
let runtime: Runtime;
/** What the live projector built from the seed, per table. */
const live: Record<string, string[]> = {};

beforeAll(async () => {
  // A clone of the run's demo seed (made once per run by a real `qiraa seed-demo`).
  const { db: seededDb, seed: seeded } = await createDemoSeededDatabase();
  db = seededDb;
  expect(seeded.code, seeded.stderr).toBe(0);
  // Nothing on stderr but the seed's progress lines ("seed-demo [3/12] …", "seed-demo: done in 19.3 s").
  expect(seeded.stderr.split('\n').filter((l) => l !== '' && !SEED_PROGRESS.test(l))).toEqual([]);
  runtime = await openRuntime(loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', NODE_ENV: 'test' }), {
    role: 'cli',
  });
  expect(await pendingMigrations(runtime.sql)).toEqual([]);
  for (const projection of runtime.projector.projections) await catchUp(runtime, projection);
  for (const projection of readModels()) Object.assign(live, await snapshotOf(projection));
}, 300_000);
afterAll(async () => {
  await runtime?.close();
  await db?.drop();
});

/**
 * A table's rows as sorted JSON lines, without the columns a rebuild fills anew by design (serial ids, the
 * time a row was written).
 */
async function snapshot(sql: AnySql, table: string): Promise<string[]> {
  const columns = await sql<{ name: string }[]>`
    select column_name as name from information_schema.columns
    where table_schema = current_schema() and table_name = ${table}
      and coalesce(column_default, '') not like 'nextval(%'
      and coalesce(column_default, '') not in ('now()', 'CURRENT_TIMESTAMP', 'clock_timestamp()')
    order by ordinal_position`;
  const rows = await sql<{ row: string }[]>`
    select jsonb_build_object(${sql.unsafe(columns.map((c) => `'${c.name}', "${c.name}"`).join(', '))})::text as row
    from ${sql(table)}`;
  return rows.map((r) => r.row).sort();
}

const readModels = () => runtime.projector.projections.filter((p) => p.tables.length > 0);

describe('every projection rebuilds over the demo seed at every batch size', () => {
  it('the seed feeds the read models (an empty one would prove nothing)', () => {
    const empty = Object.entries(live)
      .filter(([, rows]) => rows.length === 0)
      .map(([table]) => table);
    console.info(`read models empty after the seed: ${empty.join(', ') || 'none'}`);
    expect(empty.length).toBeLessThan(Object.keys(live).length / 2);
  });

  it.each(BATCH_SIZES)(
    'batch size %i: each rebuilt read model equals the live one',
    async (batchSize) => {
      const mismatched: string[] = [];
      const check = async (projection: Projection) => {
        try {
          await rebuildProjection(runtime, projection, { batchSize });
        } catch (error) {
          mismatched.push(`${projection.name}: ${(error as Error).message}`);
          return;
        }
        const rebuilt = await snapshotOf(projection);
        for (const table of projection.tables) {
          if (JSON.stringify(rebuilt[table]) !== JSON.stringify(live[table])) {
            mismatched.push(`${projection.name}.${table}`);
            expect.soft(rebuilt[table], `${projection.name}.${table} at batch ${batchSize}`).toEqual(live[table]);
          }
        }
      };
      // Three projections at a time (their tables are disjoint): small batches wait on round trips, not CPU.
      const queue = [...readModels()];
      await Promise.all(
        [1, 2, 3].map(async () => {
          for (let next = queue.shift(); next; next = queue.shift()) await check(next);
        }),
      );
      expect(mismatched).toEqual([]);
    },
    180_000,
  );
});

async function snapshotOf(projection: Projection): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const table of projection.tables) tables[table] = await snapshot(runtime.sql, table);
  return tables;
}
