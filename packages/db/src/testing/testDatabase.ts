import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { connect, type Sql } from '../connect';
import { createDatabaseIfMissing } from '../createDatabase';

export interface TestDatabase {
  readonly url: string;
  readonly name: string;
  readonly sql: Sql;
  /** Another, independent pool on the same database (race tests need two real connections). */
  connectAgain(max?: number): Sql;
  /** Closes the pools; the database itself is dropped with the run's others when the run ends (globalSetup). */
  drop(): Promise<void>;
}

/**
 * A test database need not survive a crash of its server: commits stop waiting for the WAL flush
 * (`synchronous_commit = off`), which on this machine's disk was most of what a write-heavy spec waited on.
 * Visibility, locks and ordering are unchanged; only durability after a server crash is given up.
 */
export async function relaxDurability(serverUrl: string, name: string): Promise<void> {
  const admin = connect(serverUrl, { max: 1 });
  try {
    await admin`alter database ${admin(name)} set synchronous_commit = off`;
  } finally {
    await admin.end();
  }
}

/**
 * A fresh, migrated database for one spec file, cloned from the run's template, or from `from` (a database of
 * this run that already holds more, such as the demo seed: apps/cli/src/testing/demoSeededDatabase.ts).
 */
export async function createTestDatabase(options: { from?: string } = {}): Promise<TestDatabase> {
  const { serverUrl, template, prefix } = inject('qiraaDb');
  const name = `${prefix}${randomBytes(6).toString('hex')}`;
  const url = await createDatabaseIfMissing(serverUrl, name, options.from ?? template);
  await relaxDurability(serverUrl, name);
  const sql = connect(url, { max: 4, applicationName: 'qiraa-test' });
  const extra: Sql[] = [];
  return {
    url,
    name,
    sql,
    connectAgain(max = 1) {
      const again = connect(url, { max, applicationName: 'qiraa-test' });
      extra.push(again);
      return again;
    },
    async drop() {
      await Promise.all([sql, ...extra].map((s) => s.end({ timeout: 5 })));
    },
  };
}
