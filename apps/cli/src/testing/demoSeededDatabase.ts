import { connect, withDatabase } from '@qiraa/db';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { inject } from 'vitest';
import { type CliRun, runCli } from './runCli';

export interface DemoSeededDatabase {
  /** This file's own database: a clone of the run's seeded one, free to change. */
  db: TestDatabase;
  /** The `qiraa seed-demo` run (a real process) that seeded the run's copy: its exit code, stdout and stderr. */
  seed: CliRun;
}

/**
 * A database holding the demo seed, for specs that read what the seed wrote (and rebuild from it) rather
 * than test the seed itself (seedDemo.int.spec.ts does that on its own run). The seed takes tens of CPU-seconds
 * (PostgreSQL's included); the run makes it once, with the real `qiraa seed-demo` in a child process, into a
 * database named by the run's prefix, and every such file clones that (`CREATE DATABASE ... TEMPLATE`). The
 * first file to ask seeds while holding an advisory lock; the others wait on the lock, then clone. The seed's
 * output rides along as the database's comment, so every file can check it as if it had seeded itself. A
 * seed that fails is not kept: each file then seeds anew and fails on its own. It is made per run, never
 * reused by the next, because what the seed writes depends on the sources and on today's date.
 */
export async function createDemoSeededDatabase(): Promise<DemoSeededDatabase> {
  const { serverUrl, template, prefix } = inject('qiraaDb');
  const seeded = `${prefix}demo_seed`;
  const admin = connect(serverUrl, { max: 1 });
  try {
    const session = await admin.reserve();
    try {
      await session`select pg_advisory_lock(hashtext(${seeded}))`;
      const [kept] = await session<{ seed: string }[]>`
        select shobj_description(oid, 'pg_database') as seed from pg_database where datname = ${seeded}`;
      if (kept) return { db: await createTestDatabase({ from: seeded }), seed: JSON.parse(kept.seed) as CliRun };

      const making = `${seeded}_making`;
      await session`drop database if exists ${session(making)} with (force)`;
      await session`create database ${session(making)} template ${session(template)}`;
      // As createTestDatabase does for every file's database: a test database need not survive a server crash.
      await session`alter database ${session(making)} set synchronous_commit = off`;
      const seed = await runCli(
        ['seed-demo'],
        { DATABASE_URL: withDatabase(serverUrl, making) },
        { timeoutMs: 240_000 },
      );
      if (seed.code !== 0) return { db: await createTestDatabase({ from: making }), seed };
      await session`alter database ${session(making)} rename to ${session(seeded)}`;
      await session.unsafe(`comment on database "${seeded}" is '${JSON.stringify(seed).replaceAll("'", "''")}'`);
      return { db: await createTestDatabase({ from: seeded }), seed };
    } finally {
      await session`select pg_advisory_unlock(hashtext(${seeded}))`.catch(() => {});
      session.release();
    }
  } finally {
    await admin.end();
  }
}
