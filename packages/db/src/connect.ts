import postgres from 'postgres';
import type { WireCounter } from './wireCounter';

/** int8 values travel as bigint both ways (see `types` below). */
type Types = { bigint: bigint };
export type Sql = postgres.Sql<Types>;
export type TransactionSql = postgres.TransactionSql<Types>;
export type AnySql = Sql | TransactionSql;
/** A piece of SQL built with the tagged template, put into another statement (a subquery, an expression). */
export type SqlFragment = postgres.PendingQuery<postgres.Row[]>;

export interface ConnectOptions {
  max?: number;
  applicationName?: string;
  /** Seconds a new connection may take to be ready (TCP, TLS, authentication) before it fails. */
  connectTimeoutSeconds?: number;
  /** Benches: count round trips, statements and parses on this pool's wire (`WireCounter`). */
  wire?: WireCounter;
}

/**
 * Seconds between attempts to reopen a lost connection. postgres.js's default grows to 20 s, and a query
 * that waits for the reopened connection waits that long: during an outage requests then hang instead of
 * failing, and after it the pool comes back late. A short fixed pause keeps both bounded; each attempt
 * against a stopped server is one refused connect, cheap for both sides.
 */
const RECONNECT_PAUSE_SECONDS = 0.1;

/**
 * One postgres.js pool. int8 comes back as bigint so positions and versions never lose precision;
 * notices are dropped because migrations raise harmless ones ("relation exists, skipping").
 */
export function connect(url: string, options: ConnectOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    // Bounded so an unreachable server fails a query instead of holding it (postgres.js's default is 30 s).
    connect_timeout: options.connectTimeoutSeconds ?? 1.5,
    backoff: () => RECONNECT_PAUSE_SECONDS,
    types: { bigint: postgres.BigInt },
    onnotice: () => {},
    // `socket` is a postgres.js option its types do not declare.
    ...(options.wire ? ({ socket: options.wire.socket } as object) : {}),
    connection: {
      application_name: options.applicationName ?? 'qiraa',
      // An idle open transaction holds back pg_snapshot_xmin and so stalls every projection.
      idle_in_transaction_session_timeout: 60_000,
    },
  });
}
