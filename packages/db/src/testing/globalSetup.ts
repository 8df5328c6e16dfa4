import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { connect } from '../connect';
import { createDatabaseIfMissing, dropDatabasesLike, withDatabase } from '../createDatabase';
import { startEmbeddedPostgres } from '../embeddedPostgres';
import { migrateOrThrow, readMigrationFiles } from '../migrate';

/**
 * One PostgreSQL server per test run: TEST_DATABASE_URL's server when set, otherwise an embedded one in a
 * temporary folder. A template database holds the migrated schema; each spec file clones it.
 */
export default async function setup(project: TestProject) {
  let serverUrl = process.env.TEST_DATABASE_URL;
  let stop = async () => {};
  if (!serverUrl) {
    const dir = await mkdtemp(path.join(tmpdir(), 'qiraa-test-pg-'));
    // As root the server runs as user postgres, which must be able to enter the folder.
    await chmod(dir, 0o755);
    const server = await startEmbeddedPostgres(dir);
    serverUrl = server.url;
    stop = async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    };
  }
  const files = await readMigrationFiles();
  const digest = createHash('sha256')
    .update(files.map((f) => `${f.name}:${f.checksum}`).join('\n'))
    .digest('hex')
    .slice(0, 12);
  const template = `qiraa_tpl_${digest}`;
  const templateUrl = await createDatabaseIfMissing(serverUrl, template);
  const sql = connect(templateUrl, { max: 1 });
  try {
    await migrateOrThrow(sql);
  } finally {
    await sql.end();
  }
  // Spec files leave their databases behind and the run drops them here, at once: on PostgreSQL 15 every
  // DROP DATABASE forces an immediate checkpoint (fsyncing what every other file wrote meanwhile), which cost
  // each file seconds in its afterAll; concurrent drops share checkpoints.
  const prefix = `qiraa_t_${randomBytes(4).toString('hex')}_`;
  const adminUrl = withDatabase(serverUrl, 'postgres');
  project.provide('qiraaDb', { serverUrl: adminUrl, template, prefix });
  return async () => {
    await dropDatabasesLike(adminUrl, prefix);
    await stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    qiraaDb: { serverUrl: string; template: string; prefix: string };
  }
}
