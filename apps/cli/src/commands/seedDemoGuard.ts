import type { ReservedSql, Sql } from '@qiraa/db';
import { CliError } from '../cliError';
import { claimInterrupt } from '../interrupt';

/** Tables the guard keeps for itself (and the migrations ledger): never copied, emptied or put back. */
const OWN_TABLES = ['schema_migrations', 'demo_seed_runs', 'demo_seed_baseline'];
// One seed at a time per database: held on the guard's reserved connection for the whole run.
const LOCK_KEY = 'qiraa:seed-demo';

async function tablesOf(conn: ReservedSql): Promise<string[]> {
  const rows = await conn<{ name: string }[]>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition
    order by 1`;
  return rows.map((r) => r.name).filter((name) => !OWN_TABLES.includes(name));
}

/** `tables` ordered so that a table comes after every table its foreign keys point to. */
async function parentsFirst(conn: ReservedSql, tables: string[]): Promise<string[]> {
  const edges = await conn<{ child: string; parent: string }[]>`
    select ch.relname as child, pa.relname as parent
    from pg_constraint k join pg_class ch on ch.oid = k.conrelid join pg_class pa on pa.oid = k.confrelid
    where k.contype = 'f' and ch.relnamespace = pa.relnamespace and ch.oid <> pa.oid`;
  const ordered: string[] = [];
  const visit = (table: string, path: Set<string>) => {
    if (ordered.includes(table) || path.has(table)) return;
    path.add(table);
    for (const e of edges) if (e.child === table && tables.includes(e.parent)) visit(e.parent, path);
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}

/**
 * Copies every non-empty table into demo_seed_baseline and marks the run `running`, in one repeatable-read
 * transaction (one consistent picture even while a server writes checkpoints).
 */
export async function beginSeedRun(conn: ReservedSql, startedAt: Date): Promise<void> {
  await conn`begin isolation level repeatable read`;
  try {
    await conn`delete from demo_seed_baseline`;
    for (const table of await tablesOf(conn)) {
      await conn`
        insert into demo_seed_baseline (table_name, rows)
        select ${table}, jsonb_agg(to_jsonb(t)) from ${conn(table)} t having count(*) > 0`;
    }
    await conn`
      insert into demo_seed_runs (id, state, started_at) values (1, 'running', ${startedAt})
      on conflict (id) do update set state = 'running', started_at = excluded.started_at, finished_at = null`;
    await conn`commit`;
  } catch (error) {
    await conn`rollback`.catch(() => {});
    throw error;
  }
}

/**
 * Puts every table back as the copy shows it: all emptied in one TRUNCATE (the event log's append-only
 * triggers, and every other user trigger, are off for this transaction only: ALTER TABLE is transactional
 * and holds its lock to the end, so no other session ever sees them off), then the copied rows re-inserted
 * parents first, with their own ids (identity columns overridden; generated columns recomputed).
 * Sequences are not wound back: ids taken by the failed seed are simply never used.
 */
export async function restoreBeforeSeed(conn: ReservedSql): Promise<void> {
  await conn`begin`;
  try {
    const tables = await tablesOf(conn);
    const triggered = await conn<{ name: string }[]>`
      select distinct c.relname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where not t.tgisinternal and c.relname in ${conn(tables)}`;
    for (const { name } of triggered) await conn`alter table ${conn(name)} disable trigger user`;
    if (tables.length > 0) await conn`truncate ${conn(tables)}`;
    const copied = (await conn<{ name: string }[]>`select table_name as name from demo_seed_baseline`).map(
      (r) => r.name,
    );
    for (const table of await parentsFirst(
      conn,
      copied.filter((t) => tables.includes(t)),
    )) {
      const columns = (
        await conn<{ name: string }[]>`
          select attname as name from pg_attribute
          where attrelid = ${table}::regclass and attnum > 0 and not attisdropped and attgenerated = ''
          order by attnum`
      ).map((r) => r.name);
      await conn`
        insert into ${conn(table)} (${conn(columns)}) overriding system value
        select ${conn(columns)}
        from jsonb_populate_recordset(null::${conn(table)},
          (select rows from demo_seed_baseline where table_name = ${table}))`;
    }
    for (const { name } of triggered) await conn`alter table ${conn(name)} enable trigger user`;
    await conn`delete from demo_seed_baseline`;
    await conn`delete from demo_seed_runs`;
    await conn`commit`;
  } catch (error) {
    await conn`rollback`.catch(() => {});
    throw error;
  }
}

async function finishSeedRun(conn: ReservedSql, finishedAt: Date): Promise<void> {
  await conn`begin`;
  await conn`update demo_seed_runs set state = 'done', finished_at = ${finishedAt}`;
  await conn`delete from demo_seed_baseline`;
  await conn`commit`;
}

/** Between two steps: throws once a stop signal came (the guard then puts the database back). */
export type SeedStep = (label: string) => void;

class SeedInterrupted extends CliError {}

export interface GuardOptions {
  /** Progress and notices, one line each (stderr). */
  say: (line: string) => void;
  /** The seed's clock (start and end of the run). */
  now: () => Date;
  /** Steps the work announces, for "[3/12]". */
  steps: number;
}

/**
 * Runs the seed all-or-nothing. On a database that a killed seed left half-filled it first puts that back;
 * it refuses a database that has users (exit 1, nothing changed); it copies the tables, runs `work`, and on a
 * failure or a stop signal (honoured between two steps) puts every table back before it exits, so the
 * database is again the empty one it was. A run killed outright (SIGKILL, power) is put back by the next
 * `qiraa seed-demo`, which then seeds.
 */
export async function seedAllOrNothing<T>(
  sql: Sql,
  options: GuardOptions,
  work: (step: SeedStep) => Promise<T>,
): Promise<T> {
  const conn = await sql.reserve();
  let locked = false;
  try {
    const [lock] = await conn<{ locked: boolean }[]>`select pg_try_advisory_lock(hashtext(${LOCK_KEY})) as locked`;
    locked = lock?.locked === true;
    if (!locked) throw new CliError('another qiraa seed-demo is running on this database; wait for it to finish');
    const [previous] = await conn<{ state: string; startedAt: Date }[]>`
      select state, started_at as "startedAt" from demo_seed_runs`;
    if (previous?.state === 'running') {
      options.say(
        `seed-demo: the seed started ${previous.startedAt.toISOString()} did not finish; putting the database back as it was before it`,
      );
      await restoreBeforeSeed(conn);
    }
    const [anyUser] = await conn`select 1 from users limit 1`;
    if (anyUser) {
      throw new CliError('the database already has users; seed-demo only seeds an empty database (nothing changed)');
    }
    await beginSeedRun(conn, options.now());

    let stopCode: number | undefined;
    const release = claimInterrupt((exitCode) => {
      stopCode = exitCode;
      options.say('seed-demo: stopping after the current step; the database will be put back as it was');
    });
    let done = 0;
    const step: SeedStep = (label) => {
      if (stopCode !== undefined) throw new SeedInterrupted('seed-demo was stopped', stopCode);
      done += 1;
      options.say(`seed-demo [${done}/${options.steps}] ${label}`);
    };
    try {
      const result = await work(step);
      // A signal during the last step comes too late to matter: the seed is whole, and is kept.
      await finishSeedRun(conn, options.now());
      return result;
    } catch (error) {
      options.say('seed-demo: putting the database back as it was before the seed (nothing is kept)');
      await restoreBeforeSeed(conn);
      if (error instanceof SeedInterrupted) {
        throw new CliError('seed-demo was stopped; the database is empty again (nothing kept)', error.exitCode);
      }
      throw error;
    } finally {
      release();
    }
  } finally {
    if (locked) await conn`select pg_advisory_unlock(hashtext(${LOCK_KEY}))`.catch(() => {});
    conn.release();
  }
}
