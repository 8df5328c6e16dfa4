import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabaseIfMissing, dropDatabase, startEmbeddedPostgres } from '@qiraa/db';

/**
 * A fresh database `qiraa_fuzz_<random>` on FUZZ_DATABASE_URL's or TEST_DATABASE_URL's server, or on an embedded
 * server in a temporary folder when neither is set. `release` drops it (and stops the embedded server).
 */
export async function acquireDatabase(log: (line: string) => void): Promise<{ url: string; release(): Promise<void> }> {
  const cleanups: Array<() => Promise<unknown>> = [];
  const release = async () => {
    for (const step of cleanups.reverse().splice(0)) {
      await step().catch((error: Error) => log(`cleanup failed: ${error.message}`));
    }
  };
  try {
    let serverUrl = process.env.FUZZ_DATABASE_URL || process.env.TEST_DATABASE_URL;
    if (!serverUrl) {
      const dir = await mkdtemp(path.join(tmpdir(), 'qiraa-fuzz-pg-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      await chmod(dir, 0o755); // as root the server runs as user postgres, which must enter the folder
      log(`starting embedded PostgreSQL in ${dir}`);
      const server = await startEmbeddedPostgres(dir);
      cleanups.push(() => server.stop());
      serverUrl = server.url;
    }
    const admin = serverUrl;
    const name = `qiraa_fuzz_${randomBytes(5).toString('hex')}`;
    const url = await createDatabaseIfMissing(admin, name);
    cleanups.push(() => dropDatabase(admin, name));
    return { url, release };
  } catch (error) {
    await release();
    throw error;
  }
}
