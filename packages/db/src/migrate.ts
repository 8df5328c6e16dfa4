import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sql } from './connect';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations', import.meta.url));

export interface MigrationFile {
  readonly name: string;
  readonly checksum: string;
  readonly body: string;
}

export type MigrateResult =
  | { kind: 'migrated'; applied: string[]; alreadyApplied: number }
  | { kind: 'checksum_mismatch'; files: string[] };

export class MigrationError extends Error {
  constructor(
    message: string,
    readonly files: string[],
  ) {
    super(message);
    this.name = 'MigrationError';
  }
}

const FILE_PATTERN = /^\d{4}_[a-z0-9_]+\.sql$/;
// Arbitrary but fixed: every qiraa process serialises migrations on this key.
const MIGRATION_LOCK = 727_172_001;

export async function readMigrationFiles(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const names = (await readdir(dir)).filter((n) => FILE_PATTERN.test(n)).sort();
  return Promise.all(
    names.map(async (name) => {
      const body = await readFile(path.join(dir, name), 'utf8');
      return { name, body, checksum: createHash('sha256').update(body).digest('hex') };
    }),
  );
}

/**
 * Applies pending forward-only files in name order, each in its own transaction, under a session
 * advisory lock so concurrent starts apply each file once. A changed applied file stops everything.
 */
export async function migrate(sql: Sql, dir = MIGRATIONS_DIR): Promise<MigrateResult> {
  const files = await readMigrationFiles(dir);
  const conn = await sql.reserve();
  try {
    await conn`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await conn`
      create table if not exists schema_migrations (
        name text primary key,
        checksum text not null,
        applied_at timestamptz not null default now()
      )`;
    const applied = new Map(
      (await conn<{ name: string; checksum: string }[]>`select name, checksum from schema_migrations`).map((r) => [
        r.name,
        r.checksum,
      ]),
    );
    const changed = files.filter((f) => applied.has(f.name) && applied.get(f.name) !== f.checksum).map((f) => f.name);
    if (changed.length > 0) return { kind: 'checksum_mismatch', files: changed };
    const pending = files.filter((f) => !applied.has(f.name));
    for (const file of pending) {
      await conn.unsafe('begin');
      try {
        await conn.unsafe(file.body);
        await conn`insert into schema_migrations (name, checksum) values (${file.name}, ${file.checksum})`;
        await conn.unsafe('commit');
      } catch (error) {
        await conn.unsafe('rollback');
        throw new MigrationError(`migration ${file.name} failed: ${(error as Error).message}`, [file.name]);
      }
    }
    return { kind: 'migrated', applied: pending.map((f) => f.name), alreadyApplied: applied.size };
  } finally {
    await conn`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
    conn.release();
  }
}

/** migrate(), turning a checksum mismatch into an error for callers that must not go on. */
export async function migrateOrThrow(sql: Sql, dir = MIGRATIONS_DIR): Promise<string[]> {
  const result = await migrate(sql, dir);
  if (result.kind === 'checksum_mismatch') {
    throw new MigrationError(`applied migrations changed on disk: ${result.files.join(', ')}`, result.files);
  }
  return result.applied;
}

export async function pendingMigrations(sql: Sql, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = await readMigrationFiles(dir);
  const [exists] = await sql`select to_regclass('schema_migrations') is not null as present`;
  if (!exists?.present) return files.map((f) => f.name);
  const applied = new Set((await sql<{ name: string }[]>`select name from schema_migrations`).map((r) => r.name));
  return files.filter((f) => !applied.has(f.name)).map((f) => f.name);
}
