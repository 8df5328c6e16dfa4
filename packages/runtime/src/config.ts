import path from 'node:path';

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

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: integer(env.PORT, 8787, 'PORT'),
    host: nonEmpty(env.HOST) ?? '0.0.0.0',
    nodeEnv: nonEmpty(env.NODE_ENV) ?? 'development',
    logLevel: nonEmpty(env.LOG_LEVEL) ?? 'info',
    databaseUrl: nonEmpty(env.DATABASE_URL),
    dataDir: path.resolve(nonEmpty(env.DATA_DIR) ?? './.data'),
    redisUrl: nonEmpty(env.REDIS_URL),
    eventstoreUrl: nonEmpty(env.EVENTSTORE_URL),
    queuePrefix: nonEmpty(env.QUEUE_PREFIX) ?? 'qiraa',
    sweepIntervalMs: integer(env.PROJECTION_SWEEP_MS, 5000, 'PROJECTION_SWEEP_MS'),
    jwtSecret: nonEmpty(env.JWT_SECRET),
    trustProxy: trustProxy(env.TRUST_PROXY),
  };
}
