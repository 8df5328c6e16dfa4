import path from 'node:path';
import { isDatabaseUrl, SetupError } from '@qiraa/db';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly nodeEnv: string;
  readonly logLevel: string;
  /** PostgreSQL URL; absent means the embedded server under dataDir. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  /** With Redis, projections run in BullMQ workers (apps/worker); without, in the API process. */
  readonly redisUrl: string | undefined;
  /** KurrentDB/EventStoreDB connection string; absent means the PostgreSQL event store. */
  readonly eventstoreUrl: string | undefined;
  readonly queuePrefix: string;
  readonly sweepIntervalMs: number;
  /** HS256 key for access tokens; required in production, kept in DATA_DIR otherwise. */
  readonly jwtSecret: string | undefined;
  /**
   * Which proxies' `X-Forwarded-For` to believe (fastify `trustProxy`): false (default), true (any), or a
   * comma list of proxy addresses and CIDRs. Per-source limits (student login) key on the address it yields.
   */
  readonly trustProxy: boolean | string;
}

function trustProxy(value: string | undefined): boolean | string {
  const v = nonEmpty(value);
  if (v === undefined || v === 'false') return false;
  return v === 'true' ? true : v;
}

const nonEmpty = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : undefined);

function integer(value: string | undefined, fallback: number, name: string, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > max) {
    throw new SetupError(
      name,
      `${name} must be a non-negative integer${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ''}, got "${value}"; fix or unset ${name}`,
    );
  }
  return n;
}

/** The URL itself is never quoted back: it usually holds a password. */
function databaseUrl(value: string | undefined): string | undefined {
  const url = nonEmpty(value);
  if (url !== undefined && !isDatabaseUrl(url)) {
    throw new SetupError(
      'DATABASE_URL',
      'DATABASE_URL is not a PostgreSQL URL: write it as postgres://user:password@host:5432/database ' +
        '(percent-encode @ : / # ? in the password), or unset it to use the embedded PostgreSQL',
    );
  }
  return url;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: integer(env.PORT, 8787, 'PORT', 65_535),
    host: nonEmpty(env.HOST) ?? '0.0.0.0',
    nodeEnv: nonEmpty(env.NODE_ENV) ?? 'development',
    logLevel: nonEmpty(env.LOG_LEVEL) ?? 'info',
    databaseUrl: databaseUrl(env.DATABASE_URL),
    dataDir: path.resolve(nonEmpty(env.DATA_DIR) ?? './.data'),
    redisUrl: nonEmpty(env.REDIS_URL),
    eventstoreUrl: nonEmpty(env.EVENTSTORE_URL),
    queuePrefix: nonEmpty(env.QUEUE_PREFIX) ?? 'qiraa',
    sweepIntervalMs: integer(env.PROJECTION_SWEEP_MS, 5000, 'PROJECTION_SWEEP_MS'),
    jwtSecret: nonEmpty(env.JWT_SECRET),
    trustProxy: trustProxy(env.TRUST_PROXY),
  };
}
