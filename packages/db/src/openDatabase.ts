import { createDatabaseIfMissing } from './createDatabase';
import { startEmbeddedPostgres } from './embeddedPostgres';

export interface DatabaseLocation {
  /** URL of the application database. */
  readonly url: string;
  /** 'external' for DATABASE_URL; 'embedded' when this process started or joined the embedded server. */
  readonly kind: 'external' | 'embedded';
  release(): Promise<void>;
}

export const EMBEDDED_DATABASE = 'qiraa';

/** DATABASE_URL when given; otherwise the embedded server under `dataDir`, with database `qiraa`. */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  log?: (line: string) => void;
}): Promise<DatabaseLocation> {
  if (options.databaseUrl) {
    return { url: options.databaseUrl, kind: 'external', release: async () => {} };
  }
  const server = await startEmbeddedPostgres(`${options.dataDir}/pg`, options.log);
  const url = await createDatabaseIfMissing(server.url, EMBEDDED_DATABASE);
  return { url, kind: 'embedded', release: () => server.stop() };
}
