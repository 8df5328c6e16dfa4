import { createDatabaseIfMissing } from './createDatabase';
import { startEmbeddedPostgres } from './embeddedPostgres';

export interface EmbeddedCluster {
  /** The cluster's folder (`$DATA_DIR/pg`). */
  readonly dataDir: string;
  readonly port: number;
  /** 'started' by this process (and stopped by it), or 'joined' when another process already ran it. */
  readonly ownership: 'started' | 'joined';
}

export interface DatabaseLocation {
  /** URL of the application database. */
  readonly url: string;
  /** 'external' for DATABASE_URL; 'embedded' when this process started or joined the embedded server. */
  readonly kind: 'external' | 'embedded';
  /** Set for 'embedded': what start-up logs say about the cluster. */
  readonly embedded?: EmbeddedCluster;
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
  try {
    const url = await createDatabaseIfMissing(server.url, EMBEDDED_DATABASE);
    return {
      url,
      kind: 'embedded',
      embedded: { dataDir: server.dataDir, port: server.port, ownership: server.reused ? 'joined' : 'started' },
      release: () => server.stop(),
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
