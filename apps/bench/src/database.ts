import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabaseIfMissing, dropDatabase, startEmbeddedPostgres } from '@qiraa/db';

export interface BenchDatabase {
  /** URL of the fresh bench database. */
  readonly url: string;
  readonly name: string;
  readonly server: 'external' | 'embedded';
  /** Drops the database and stops the embedded server, if any. Safe to call twice. */
  release(): Promise<void>;
}

async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A fresh database `qiraa_bench_<random>` on BENCH_DATABASE_URL's or TEST_DATABASE_URL's server, or on an
 * embedded server started in a temporary folder when neither is set.
 */
export async function acquireDatabase(log: (line: string) => void): Promise<BenchDatabase> {
  const given = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  const cleanups: Array<() => Promise<void>> = [];
  const release = async () => {
    while (cleanups.length > 0) {
      const step = cleanups.pop()!;
      try {
        await step();
      } catch (error) {
        log(`cleanup failed: ${(error as Error).message}`);
      }
    }
  };
  try {
    let serverUrl = given;
    if (!serverUrl) {
      const dir = await mkdtemp(path.join(tmpdir(), 'qiraa-bench-pg-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      // As root the server runs as user postgres, which must be able to enter the folder.
      await chmod(dir, 0o755);
      log(`starting embedded PostgreSQL in ${dir}`);
      const server = await startEmbeddedPostgres(dir);
      cleanups.push(async () => {
        // Ctrl-C reaches the server too; stop() would then wait for an exit that already happened.
        if (!existsSync(path.join(dir, 'postmaster.pid'))) return;
        await withTimeout(server.stop(), 15_000, 'stopping the embedded server');
      });
      serverUrl = server.url;
    }
    const name = `qiraa_bench_${randomBytes(5).toString('hex')}`;
    const admin = serverUrl;
    const url = await createDatabaseIfMissing(admin, name);
    cleanups.push(() => dropDatabase(admin, name));
    return { url, name, server: given ? 'external' : 'embedded', release };
  } catch (error) {
    await release();
    throw error;
  }
}
