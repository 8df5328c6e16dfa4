import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connect, type Sql } from './connect';
import { createDatabaseIfMissing } from './createDatabase';
import { MigrationError, migrate, migrateOrThrow, pendingMigrations } from './migrate';

const { serverUrl, prefix } = inject('qiraaDb');
const created: string[] = [];
const pools: Sql[] = [];
let dir: string;

/**
 * An empty database (not the migrated template): these tests bring their own migration files. Named with
 * the run's prefix, so the run drops it with the others at its end (a DROP DATABASE here forced a checkpoint
 * inside afterAll, which under a loaded CI run took longer than the hook's minute).
 */
async function emptyDatabase(): Promise<Sql> {
  const name = `${prefix}m_${randomBytes(5).toString('hex')}`;
  created.push(name);
  const sql = connect(await createDatabaseIfMissing(serverUrl, name), { max: 2 });
  pools.push(sql);
  return sql;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'qiraa-migrations-'));
  await writeFile(path.join(dir, '0001_first.sql'), 'create table first_t (id int primary key);');
  await writeFile(path.join(dir, '0002_second.sql'), 'create table second_t (id int references first_t);');
  await writeFile(path.join(dir, 'notes.txt'), 'not a migration');
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await rm(dir, { recursive: true, force: true });
});

describe('migrations', () => {
  it('applies pending files in name order, records checksums, and applies nothing twice', async () => {
    const sql = await emptyDatabase();
    expect(await pendingMigrations(sql, dir)).toEqual(['0001_first.sql', '0002_second.sql']);
    expect(await migrate(sql, dir)).toEqual({
      kind: 'migrated',
      applied: ['0001_first.sql', '0002_second.sql'],
      alreadyApplied: 0,
    });
    const rows = await sql`select name, length(checksum) as len from schema_migrations order by name`;
    expect(rows).toEqual([
      { name: '0001_first.sql', len: 64 },
      { name: '0002_second.sql', len: 64 },
    ]);
    expect(await migrate(sql, dir)).toEqual({ kind: 'migrated', applied: [], alreadyApplied: 2 });
    expect(await pendingMigrations(sql, dir)).toEqual([]);
  });

  it('refuses to go on when an applied file changed on disk', async () => {
    const sql = await emptyDatabase();
    const changedDir = await mkdtemp(path.join(tmpdir(), 'qiraa-migrations-changed-'));
    await writeFile(path.join(changedDir, '0001_first.sql'), 'create table first_t (id int primary key);');
    await migrateOrThrow(sql, changedDir);
    await writeFile(path.join(changedDir, '0001_first.sql'), 'create table first_t (id bigint primary key);');
    expect(await migrate(sql, changedDir)).toEqual({ kind: 'checksum_mismatch', files: ['0001_first.sql'] });
    await expect(migrateOrThrow(sql, changedDir)).rejects.toBeInstanceOf(MigrationError);
    await rm(changedDir, { recursive: true, force: true });
  });

  it('rolls back a failing file and records nothing for it', async () => {
    const sql = await emptyDatabase();
    const badDir = await mkdtemp(path.join(tmpdir(), 'qiraa-migrations-bad-'));
    await writeFile(path.join(badDir, '0001_bad.sql'), 'create table half_t (id int); select no_such_function();');
    await expect(migrate(sql, badDir)).rejects.toThrow(/0001_bad\.sql failed/);
    expect(await sql`select to_regclass('half_t') as t`).toEqual([{ t: null }]);
    expect(await sql`select count(*)::int as n from schema_migrations`).toEqual([{ n: 0 }]);
    await rm(badDir, { recursive: true, force: true });
  });

  it('applies each file once when two processes start together (two real connections)', async () => {
    const a = await emptyDatabase();
    const url = `${serverUrl.replace(/\/[^/]*$/, '')}/${created.at(-1)}`;
    const b = connect(url, { max: 1 });
    pools.push(b);
    const [ra, rb] = await Promise.all([migrate(a, dir), migrate(b, dir)]);
    const applied = [ra, rb].map((r) => (r.kind === 'migrated' ? r.applied.length : -1)).sort();
    expect(applied).toEqual([0, 2]);
    expect(await a`select count(*)::int as n from schema_migrations`).toEqual([{ n: 2 }]);
  });
});
