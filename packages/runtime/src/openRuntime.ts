import {
  connect,
  type DatabaseLocation,
  migrateOrThrow,
  openDatabase,
  pendingMigrations,
  probeDatabase,
  SetupError,
  type Sql,
} from '@qiraa/db';
import { type EventStore, kurrentdbEventStore, postgresEventStore } from '@qiraa/eventstore';
import { resolveJwtSecret } from '@qiraa/identity';
import type { BoundedContext, ContextDeps } from '@qiraa/kernel';
import { bullmqProjector, inProcessProjector, type Projector } from '@qiraa/projections';
import { Redis } from 'ioredis';
import type { Config } from './config';
import { allProjections, contexts as defaultContexts } from './contexts';

export type Role = 'api' | 'worker' | 'cli';

export interface ReadinessCheck {
  name: string;
  check(): Promise<true | string>;
}

export interface Runtime {
  readonly config: Config;
  readonly database: DatabaseLocation;
  readonly sql: Sql;
  readonly store: EventStore;
  readonly projector: Projector;
  readonly contexts: readonly BoundedContext[];
  readonly deps: ContextDeps;
  readonly readiness: readonly ReadinessCheck[];
  close(): Promise<void>;
}

export interface OpenOptions {
  role: Role;
  /** Apply pending migrations first (api and worker do; the CLI has `qiraa migrate`). */
  migrate?: boolean;
  contexts?: readonly BoundedContext[];
  log?: (line: string) => void;
}

/**
 * Opens what every app needs, in one place: the database (embedded unless DATABASE_URL), the event store
 * (PostgreSQL unless EVENTSTORE_URL), and the projector (BullMQ wake-ups with REDIS_URL, else in-process).
 */
export async function openRuntime(config: Config, options: OpenOptions): Promise<Runtime> {
  // Settings checks come first: a doomed start must not create or start a database cluster.
  if (options.role === 'api') assertJwtSecret(config);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, log: options.log });
  const sql = connect(database.url, { applicationName: `qiraa-${options.role}` });
  try {
    await probeDatabase(sql, database);
    if (options.migrate ?? options.role !== 'cli') await migrateOrThrow(sql);
  } catch (error) {
    await sql.end();
    await database.release();
    throw error;
  }
  const store = config.eventstoreUrl ? kurrentdbEventStore(config.eventstoreUrl) : postgresEventStore(sql);
  const contexts = options.contexts ?? defaultContexts;
  const projections = allProjections(contexts);
  const runner = { sql, store };
  const projector =
    config.redisUrl && options.role === 'api'
      ? bullmqProjector(runner, projections, {
          redisUrl: config.redisUrl,
          prefix: config.queuePrefix,
          sweepIntervalMs: config.sweepIntervalMs,
          onError: (error) => options.log?.(`projection queue: ${error.message}`),
        })
      : inProcessProjector(runner, projections, {
          sweepIntervalMs: config.sweepIntervalMs,
          onError: (error, name) => options.log?.(`projection ${name} failed: ${(error as Error).message}`),
        });
  store.onAppended((events) => projector.wake(events));

  const readiness: ReadinessCheck[] = [
    {
      name: 'database',
      check: async () => {
        await sql`select 1 as ok`;
        return true;
      },
    },
    {
      name: 'migrations',
      check: async () => {
        const pending = await pendingMigrations(sql);
        return pending.length === 0 ? true : `pending: ${pending.join(', ')}`;
      },
    },
  ];
  if (config.redisUrl) readiness.push(redisCheck(config.redisUrl));

  return {
    config,
    database,
    sql,
    store,
    projector,
    contexts,
    deps: {
      sql,
      store,
      projector,
      nodeEnv: config.nodeEnv,
      passwordless: config.passwordless,
      // Only the API signs tokens; the worker and the CLI never need (or create) the key.
      jwtSecret:
        options.role === 'api'
          ? resolveJwtSecret({ jwtSecret: config.jwtSecret, nodeEnv: config.nodeEnv, dataDir: config.dataDir })
          : '',
    },
    readiness,
    async close() {
      await projector.stop();
      await store.close();
      await sql.end({ timeout: 5 });
      await database.release();
    },
  };
}

/** The rules resolveJwtSecret enforces, checked before anything starts so the failure is one clear line. */
function assertJwtSecret(config: Config): void {
  const fix = 'set JWT_SECRET to a random string of at least 32 characters (e.g. `openssl rand -base64 48`)';
  if (config.jwtSecret !== undefined && config.jwtSecret.length < 32) {
    throw new SetupError('JWT_SECRET', `JWT_SECRET is shorter than 32 characters; ${fix}`);
  }
  if (config.jwtSecret === undefined && config.nodeEnv === 'production') {
    throw new SetupError('JWT_SECRET', `JWT_SECRET is required when NODE_ENV=production; ${fix}`);
  }
}

function redisCheck(url: string): ReadinessCheck {
  return {
    name: 'queue',
    async check() {
      const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
      redis.on('error', () => {}); // the failed connect() below reports it
      try {
        await redis.connect();
        return (await redis.ping()) === 'PONG' ? true : 'unexpected ping answer';
      } catch (error) {
        return (error as Error).message;
      } finally {
        redis.disconnect();
      }
    },
  };
}
