import { describeDatabaseUrl } from '@qiraa/db';
import type { Runtime } from './openRuntime';

/**
 * The start-up line about the database: where the embedded cluster keeps its data, its port, and whether this
 * process started it (and will stop it) or joined one another process runs; or where DATABASE_URL points.
 */
export function describeStartup(runtime: Runtime): { fields: Record<string, unknown>; message: string } {
  const cluster = runtime.database.embedded;
  if (cluster) {
    return {
      fields: { dataDir: cluster.dataDir, postgresPort: cluster.port, embeddedPostgres: cluster.ownership },
      message:
        cluster.ownership === 'started'
          ? `embedded PostgreSQL started: data in ${cluster.dataDir}, port ${cluster.port}`
          : `embedded PostgreSQL joined (another process runs it): data in ${cluster.dataDir}, port ${cluster.port}`,
    };
  }
  const where = describeDatabaseUrl(runtime.database.url) ?? 'DATABASE_URL';
  return { fields: { database: where }, message: `PostgreSQL from DATABASE_URL: ${where}` };
}
