import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { connect, type Sql } from '../connect';
import { createDatabaseIfMissing, dropDatabase } from '../createDatabase';

export interface TestDatabase {
  readonly url: string;
  readonly name: string;
  readonly sql: Sql;
  /** Another, independent pool on the same database (race tests need two real connections). */
  connectAgain(max?: number): Sql;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one spec file, cloned from the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const { serverUrl, template } = inject('qiraaDb');
  const name = `qiraa_t_${randomBytes(6).toString('hex')}`;
  const url = await createDatabaseIfMissing(serverUrl, name, template);
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
      await dropDatabase(serverUrl, name);
    },
  };
}
