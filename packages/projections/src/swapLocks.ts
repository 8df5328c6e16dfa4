import { inTransaction, type Sql, type TransactionSql } from '@qiraa/db';
import { lockProjection, lockProjectionTables } from './advisoryLock';
import type { Projection } from './projection';

export interface SwapLockOptions {
  /** Give up (and throw) when the locks could not be had for this long; the rebuild can be run again. */
  giveUpAfterMs?: number;
  onRetry?: (attempt: number, error: Error) => void;
}

/** lock_not_available (a lock_timeout ran out) and deadlock_detected: the swap let go, try again. */
const YIELDED = new Set(['55P03', '40P01']);

/**
 * Runs `work` in a transaction holding the projection's tables (ACCESS EXCLUSIVE) and then its lock, in
 * the one lock order (advisoryLock.ts). Readers take tables in any order, so a swap holding one table
 * while it waits for another can close a cycle with them: every wait is bounded by `lock_timeout`, set so
 * that all of the swap's waits together stay under the server's `deadlock_timeout`. Any other session
 * waiting on the swap started after the swap took what it waits for, so its deadlock check comes after
 * the swap has already let go: the swap is the only side that ever yields, and it retries after a pause.
 * `work` runs again on a retry: it must start from the same state (the transaction rolled its writes back).
 */
export async function withSwapLocks<T>(
  sql: Sql,
  projection: Projection,
  work: (tx: TransactionSql) => Promise<T>,
  options: SwapLockOptions = {},
): Promise<T> {
  const [setting] = await sql<{ ms: number }[]>`
    select extract(epoch from current_setting('deadlock_timeout')::interval) * 1000 as ms`;
  // The waits: one per table and the advisory lock; a fifth of the headroom is kept for scheduling.
  const waitMs = Math.max(10, Math.floor((Number(setting?.ms ?? 1000) * 0.8) / (projection.tables.length + 1)));
  const giveUpAt = Date.now() + (options.giveUpAfterMs ?? 120_000);
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(
        sql,
        async ({ sql: tx }) => {
          // Transaction-scoped (is_local): the bound ends with this attempt's transaction.
          await tx`select set_config('lock_timeout', ${`${waitMs}ms`}, true)`;
          await lockProjectionTables(tx, projection, 'access exclusive');
          await lockProjection(tx, projection.name);
          // The bound stays for `work` too: should it wait for anything (a reactor's append meeting a command's
          // row lock), the swap is again the side that lets go.
          return work(tx);
        },
        { poolWait: 'unbounded' },
      );
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (!code || !YIELDED.has(code) || Date.now() > giveUpAt) throw error;
      options.onRetry?.(attempt, error as Error);
      // Let the writers that queued behind the swap through, then try again (jittered, growing to 1 s).
      const pause = Math.min(1000, 25 * 2 ** Math.min(attempt, 6));
      await new Promise((resolve) => setTimeout(resolve, pause / 2 + Math.random() * (pause / 2)));
    }
  }
}
