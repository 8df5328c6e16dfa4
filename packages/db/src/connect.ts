import postgres from 'postgres';

/** int8 values travel as bigint both ways (see `types` below). */
type Types = { bigint: bigint };
export type Sql = postgres.Sql<Types>;
export type TransactionSql = postgres.TransactionSql<Types>;
export type AnySql = Sql | TransactionSql;

export interface ConnectOptions {
  max?: number;
  applicationName?: string;
}

/**
 * One postgres.js pool. int8 comes back as bigint so positions and versions never lose precision;
 * notices are dropped because migrations raise harmless ones ("relation exists, skipping").
 */
export function connect(url: string, options: ConnectOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    types: { bigint: postgres.BigInt },
    onnotice: () => {},
    connection: {
      application_name: options.applicationName ?? 'qiraa',
      // An idle open transaction holds back pg_snapshot_xmin and so stalls every projection.
      idle_in_transaction_session_timeout: 60_000,
    },
  });
}
