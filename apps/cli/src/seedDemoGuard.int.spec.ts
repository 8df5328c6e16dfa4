import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { postgresEventStore, untilNothingWaiting } from '@qiraa/eventstore';
import { registerFirstAdmin } from '@qiraa/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError } from './cliError';
import { beginSeedRun, seedAllOrNothing } from './commands/seedDemoGuard';
import { interruptClaimed } from './interrupt';

let db: TestDatabase;
let pristine: Map<string, string>;

/** Every table's rows (but the guard's own and the migrations ledger) as one fingerprint per table. */
async function fingerprint(): Promise<Map<string, string>> {
  const tables = await db.sql<{ name: string }[]>`
    select tablename as name from pg_tables where schemaname = current_schema()
    and tablename not in ('schema_migrations', 'demo_seed_runs', 'demo_seed_baseline') order by 1`;
  const prints = new Map<string, string>();
  for (const { name } of tables) {
    const [row] = await db.sql<{ print: string }[]>`
      select count(*)::text || ':' || md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as print
      from (select to_jsonb(t) as x from ${db.sql(name)} t) rows`;
    prints.set(name, row!.print);
  }
  return prints;
}

/** What a seed writes, in miniature: a user, events, and a change to a row the migrations inserted. */
async function writeLikeASeed(): Promise<void> {
  await registerFirstAdmin(db.sql, { email: 'super@guard.example', password: 'guard-password-1', fullNameAr: 'م' });
  const store = postgresEventStore(db.sql);
  await store.append('guard-1', [{ type: 'GuardProbe', data: { n: 1 } }]);
  await untilNothingWaiting(store);
  await db.sql`update content_grades set name_ar = name_ar || ' (changed)'`;
  await db.sql`delete from student_context_flag_codes where ctid = (select min(ctid) from student_context_flag_codes)`;
}

const options = (lines: string[]) => ({ say: (l: string) => lines.push(l), now: () => new Date(), steps: 2 });

beforeAll(async () => {
  db = await createTestDatabase(); // migrated, no users: what seed-demo starts from
  pristine = await fingerprint();
});
afterAll(() => db.drop());

describe('seed-demo all-or-nothing (seedDemoGuard.ts)', () => {
  it('puts every table back as it was when the seed fails, and keeps the event log append-only', async () => {
    const lines: string[] = [];
    const failing = seedAllOrNothing(db.sql, options(lines), async (step) => {
      step('writing');
      await writeLikeASeed();
      expect((await fingerprint()).get('users')).not.toBe(pristine.get('users'));
      step('failing');
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    expect(await fingerprint()).toEqual(pristine);
    expect(await db.sql`select * from demo_seed_runs`).toEqual([]);
    expect(lines).toEqual([
      'seed-demo [1/2] writing',
      'seed-demo [2/2] failing',
      'seed-demo: putting the database back as it was before the seed (nothing is kept)',
    ]);
    // The append-only triggers were off only inside the putting-back transaction.
    await expect(db.sql`truncate es_events`).rejects.toThrow(/append-only/);
  });

  it('stops at the next step after a stop signal (main.ts hands it over), puts the database back and exits 128+n', async () => {
    const lines: string[] = [];
    const stopped = seedAllOrNothing(db.sql, options(lines), async (step) => {
      step('writing');
      await writeLikeASeed();
      expect(interruptClaimed(130)).toBe(true); // SIGINT arrives while the step runs
      step('never announced');
      return 'unreachable';
    });
    const error = await stopped.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect(error).toMatchObject({
      exitCode: 130,
      message: expect.stringMatching(/stopped; the database is empty again/),
    });
    expect(await fingerprint()).toEqual(pristine);
    expect(interruptClaimed(130)).toBe(false); // the claim ended with the seed: a later signal exits at once
  });

  it('after a run that was killed outright, the next seed first puts the database back, then seeds', async () => {
    const conn = await db.sql.reserve();
    try {
      await beginSeedRun(conn, new Date('2026-11-28T02:00:00Z'));
    } finally {
      conn.release();
    }
    await writeLikeASeed(); // ...and the process dies here: the run stays `running`
    const lines: string[] = [];
    const result = await seedAllOrNothing(db.sql, options(lines), async (step) => {
      step('seeding');
      expect(await fingerprint()).toEqual(pristine);
      await registerFirstAdmin(db.sql, { email: 'again@guard.example', password: 'guard-password-1', fullNameAr: 'م' });
      return 'seeded';
    });
    expect(result).toBe('seeded');
    expect(lines[0]).toBe(
      'seed-demo: the seed started 2026-11-28T02:00:00.000Z did not finish; putting the database back as it was before it',
    );
    expect(await db.sql`select email from users`).toEqual([{ email: 'again@guard.example' }]);
    expect(await db.sql`select state from demo_seed_runs`).toEqual([{ state: 'done' }]);
    expect(await db.sql`select * from demo_seed_baseline`).toEqual([]);
  });

  it('refuses a database with users, and a second seed while one runs, changing nothing', async () => {
    const before = await fingerprint();
    await expect(seedAllOrNothing(db.sql, options([]), async () => 'never')).rejects.toThrow(
      /already has users; seed-demo only seeds an empty database \(nothing changed\)/,
    );
    const other = db.connectAgain(1);
    try {
      await other`select pg_advisory_lock(hashtext('qiraa:seed-demo'))`;
      await expect(seedAllOrNothing(db.sql, options([]), async () => 'never')).rejects.toThrow(
        /another qiraa seed-demo is running/,
      );
    } finally {
      await other.end();
    }
    expect(await fingerprint()).toEqual(before);
  });
});
