import type { Sql } from './connect';

/** How long a transaction waits for a free connection before it is refused (503 DATABASE_UNAVAILABLE). */
export const POOL_WAIT_MS = 1500;

export type ReservedSql = Awaited<ReturnType<Sql['reserve']>>;

/** How one wait for a connection ended: after how long, and whether one was handed out within the bound. */
export interface PoolWait {
  seconds: number;
  outcome: 'reserved' | 'timed_out' | 'failed';
}

// Keyed by pool, so two apps in one process (tests) each see only their own pool's waits.
const poolWaitListeners = new WeakMap<Sql, (wait: PoolWait) => void>();

/** Tells `listener` how long each reservation on `sql` waited (the API's /metrics: qiraa_db_pool_wait_seconds). */
export function onPoolWait(sql: Sql, listener: (wait: PoolWait) => void): void {
  poolWaitListeners.set(sql, listener);
}

/**
 * `sql.reserve()` with a bound. postgres.js queues a reservation without limit: while the server is away the
 * queue only drains as reconnects fail, so without a bound a request waits as long as the outage lasts.
 * A reservation that arrives after the bound is handed straight back to the pool.
 */
export async function reserveWithin(sql: Sql, ms = POOL_WAIT_MS): Promise<ReservedSql> {
  const started = performance.now();
  const report = (outcome: PoolWait['outcome']) =>
    poolWaitListeners.get(sql)?.({ seconds: (performance.now() - started) / 1000, outcome });
  const reserving = sql.reserve();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(Object.assign(new Error(`no database connection free within ${ms} ms`), { code: 'POOL_WAIT_TIMEOUT' }));
    }, ms);
  });
  try {
    const conn = await Promise.race([reserving, late]);
    report('reserved');
    return conn;
  } catch (error) {
    report((error as { code?: string }).code === 'POOL_WAIT_TIMEOUT' ? 'timed_out' : 'failed');
    reserving.then(
      (conn) => conn.release(),
      () => {},
    );
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
