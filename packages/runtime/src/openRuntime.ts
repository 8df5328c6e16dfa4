import {
  connect,
  type DatabaseLocation,
  enableWriteCombiner,
  ensureDirectory,
  migrateOrThrow,
  openDatabase,
  pendingMigrations,
  probeDatabase,
  SetupError,
  type Sql,
  type WireCounter,
} from '@qiraa/db';
import { type EventStore, kurrentdbEventStore, postgresEventStore } from '@qiraa/eventstore';
import { resolveJwtSecret } from '@qiraa/identity';
import { type BoundedContext, type Clock, type ContextDeps, shiftedClock, systemClock } from '@qiraa/kernel';
import {
  bullmqProjector,
  bullmqReactor,
  inProcessProjector,
  inProcessReactor,
  type Projector,
  parkedCounts,
  projectionHealth,
  projectionStalls,
  type Reactor,
} from '@qiraa/projections';
import { Redis } from 'ioredis';
import type { Config } from './config';
import { allProjections, allReactions, allSchedules, contexts as defaultContexts } from './contexts';
import { assertRedisReachable } from './redisReachable';
import { createScheduler, type Scheduler } from './schedules/scheduler';

export type Role = 'api' | 'worker' | 'cli';

export interface ReadinessCheck {
  name: string;
  /**
   * true: fine. A string: not ready (503). `{ degraded }`: serving, but an operator must look (200 with
   * status `degraded`; docs/operations.md, "Readiness").
   */
  check(): Promise<true | string | { degraded: string }>;
  /** Failing, it makes the instance `degraded` (still serving) rather than not ready. */
  optional?: boolean;
}

export interface Runtime {
  readonly config: Config;
  readonly database: DatabaseLocation;
  readonly sql: Sql;
  readonly store: EventStore;
  readonly projector: Projector;
  /** The contexts' reactions (effects on other contexts), driven like the projections. */
  readonly reactor: Reactor;
  readonly contexts: readonly BoundedContext[];
  readonly deps: ContextDeps;
  readonly readiness: readonly ReadinessCheck[];
  /** The one clock of every rule, schedule and response timestamp (QIRAA_CLOCK_SHIFT_DAYS moves it). */
  readonly clock: Clock;
  /** The contexts' schedules; the API starts it (`scheduler.start()`), the CLI reads its status. */
  readonly scheduler: Scheduler;
  close(): Promise<void>;
}

export interface OpenOptions {
  role: Role;
  /** Apply pending migrations first (api and worker do; the CLI has `qiraa migrate`). */
  migrate?: boolean;
  contexts?: readonly BoundedContext[];
  log?: (line: string) => void;
  /** Tests: a manual clock instead of the system clock moved by `config.clockShiftDays`. */
  clock?: Clock;
  /** The process lifecycle's `hold`: a stop waits for the database to finish starting (then stops it). */
  holdStop?: <T>(step: Promise<T>) => Promise<T>;
  /**
   * Failures an operator must see whatever LOG_LEVEL says (a projection or reaction run that failed, the
   * projection queue lost): the apps write them at error level. Falls back to `log`.
   */
  logError?: (line: string) => void;
  /** Benches: count the pool's round trips and statements (`WireCounter`). */
  wire?: WireCounter;
}

/**
 * Opens what every app needs, in one place: the database (embedded unless DATABASE_URL), the event store
 * (PostgreSQL unless EVENTSTORE_URL), and the projector (BullMQ wake-ups with REDIS_URL, else in-process).
 */
export async function openRuntime(config: Config, options: OpenOptions): Promise<Runtime> {
  // Settings checks come first: a doomed start must not create or start a database cluster.
  if (options.role === 'api') assertJwtSecret(config);
  if (options.role === 'api' && !config.jwtSecret) ensureDirectory(config.dataDir, 'DATA_DIR');
  if (config.redisUrl && options.role !== 'cli') await assertRedisReachable(config.redisUrl);
  const hold = options.holdStop ?? ((step) => step);
  const database = await hold(
    openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, log: options.log }),
  );
  const sql = connect(database.url, { applicationName: `qiraa-${options.role}`, wire: options.wire });
  try {
    await probeDatabase(sql, database);
    if (options.migrate ?? options.role !== 'cli') await migrateOrThrow(sql);
  } catch (error) {
    await sql.end();
    await database.release();
    throw error;
  }
  // Opt-in call sites share transactions and commits (writeCombiner.ts); the rest are unchanged.
  if (config.writeCombine) enableWriteCombiner(sql, config.writeCombine);
  const store = config.eventstoreUrl ? kurrentdbEventStore(config.eventstoreUrl) : postgresEventStore(sql);
  const contexts = options.contexts ?? defaultContexts;
  const projections = allProjections(contexts);
  const clock = options.clock ?? shiftedClock(config.clockShiftDays, systemClock);
  // The clock rides with the runner: a reactor's decision (decidedAt) reads the same now as a request's.
  const runner = { sql, store, clock };
  const logError = options.logError ?? options.log;
  const health = projectionHealth();
  const projector =
    config.redisUrl && options.role === 'api'
      ? bullmqProjector(runner, projections, {
          redisUrl: config.redisUrl,
          prefix: config.queuePrefix,
          sweepIntervalMs: config.sweepIntervalMs,
          onError: (error) => logError?.(`projection queue: ${error.message}`),
        })
      : inProcessProjector(runner, projections, {
          sweepIntervalMs: config.sweepIntervalMs,
          health,
          onError: (error, name) => logError?.(`projection ${name} failed: ${(error as Error).message}`),
        });
  const reactions = allReactions(contexts);
  const reactor =
    config.redisUrl && options.role === 'api'
      ? bullmqReactor(runner, reactions, {
          redisUrl: config.redisUrl,
          prefix: config.queuePrefix,
          sweepIntervalMs: config.sweepIntervalMs,
          onError: (error) => logError?.(`reaction queue: ${error.message}`),
        })
      : inProcessReactor(runner, reactions, {
          sweepIntervalMs: config.sweepIntervalMs,
          onError: (error, name) => logError?.(`reaction ${name} failed: ${(error as Error).message}`),
        });
  store.onAppended((events) => {
    projector.wake(events);
    reactor.wake(events);
  });

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
  readiness.push({
    name: 'projections',
    async check() {
      const stalls = await projectionStalls(runner, projections, {
        lagBoundSeconds: config.projectionStallSeconds,
        health,
      });
      return stalls.length === 0 ? true : stalls.join('; ');
    },
  });

  readiness.push(parkedCheck(sql));

  const scheduler: Scheduler = createScheduler({
    sql,
    deps: () => deps,
    clock,
    schedules: allSchedules(contexts),
    schoolDayEndHour: config.schoolDayEndHour,
    pollMs: config.schedulePollMs,
    redis: config.redisUrl ? { url: config.redisUrl, prefix: config.queuePrefix } : undefined,
    // A failed run is a failure an operator must see, whatever LOG_LEVEL says.
    log: options.logError ?? options.log,
  });
  const deps: ContextDeps = {
    sql,
    store,
    projector,
    nodeEnv: config.nodeEnv,
    clock,
    schedules: scheduler,
    passwordless: config.passwordless,
    // Only the API signs tokens; the worker and the CLI never need (or create) the key.
    jwtSecret:
      options.role === 'api'
        ? resolveJwtSecret({ jwtSecret: config.jwtSecret, nodeEnv: config.nodeEnv, dataDir: config.dataDir })
        : '',
  };

  return {
    config,
    database,
    sql,
    store,
    projector,
    reactor,
    contexts,
    deps,
    readiness,
    clock,
    scheduler,
    async close() {
      // Each step named when it is slow, so a stop that runs into its grace says which part held it.
      const step = (name: string, work: () => Promise<unknown>) => slowStep(name, work, logError);
      await step('the scheduler', () => scheduler.stop());
      await step('the projector', () => projector.stop());
      await step('the reactor', () => reactor.stop());
      await step('the event store', () => store.close());
      await step('the database pool', () => sql.end({ timeout: 5 }));
      await step('the database', () => database.release());
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

/** Parked reaction events make the service degraded, not unready: it serves, an operator must re-drive them. */
function parkedCheck(sql: Sql): ReadinessCheck {
  return {
    name: 'reactions',
    async check() {
      const parked = [...(await parkedCounts(sql))].sort(([a], [b]) => a.localeCompare(b));
      if (parked.length === 0) return true;
      const total = parked.reduce((sum, [, n]) => sum + n, 0);
      const each = parked.map(([name, n]) => `${name} ${n}`).join(', ');
      return { degraded: `${total} parked event(s) (${each}); see qiraa reactions status` };
    },
  };
}

function redisCheck(url: string): ReadinessCheck {
  return {
    name: 'queue',
    optional: true,
    async check() {
      const redis = new Redis(url, {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        enableOfflineQueue: false,
        connectTimeout: 500,
        retryStrategy: () => null,
      });
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

/** Runs one step of a stop; past 3 s (and every 3 s after) it says which step is still running. */
async function slowStep(name: string, work: () => Promise<unknown>, log?: (line: string) => void): Promise<void> {
  const started = performance.now();
  const timer = setInterval(() => {
    log?.(`stopping: still waiting for ${name} after ${Math.round((performance.now() - started) / 1000)} s`);
  }, 3000).unref();
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
}
