import type { Sql, TransactionSql } from './connect';

/** A transaction plus callbacks that run only once it has committed (e.g. waking projections). */
export interface UnitOfWork {
  readonly sql: TransactionSql;
  afterCommit(callback: () => void): void;
}

/**
 * Runs `work` in a transaction on a connection reserved first. Not `sql.begin`: postgres.js 3.4.9 can send
 * its BEGIN pipelined behind other queries without reserving the connection (porsager/postgres#1189, #823),
 * which under load answers UNSAFE_TRANSACTION or lets other requests' queries run inside the transaction.
 * `reserve()` hands out only an idle connection, so BEGIN, the work and COMMIT run alone on it.
 */
export async function inTransaction<T>(sql: Sql, work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
  const callbacks: Array<() => void> = [];
  const conn = await sql.reserve();
  let result: T;
  try {
    // Sent now, not awaited: the work's first statement goes out with it (one round trip less per
    // transaction). BEGIN on an idle reserved connection fails only with the connection, which fails the
    // statements behind it too; its outcome is still checked before COMMIT.
    const begun = conn`begin`.execute();
    begun.catch(() => {}); // awaited below when the work succeeds; the work's own error wins otherwise
    try {
      result = await work({ sql: conn as unknown as TransactionSql, afterCommit: (cb) => callbacks.push(cb) });
      await begun;
      await conn`commit`;
    } catch (error) {
      // A broken connection cannot roll back; the server ends its transaction when the socket closes.
      await conn`rollback`.catch(() => {});
      throw error;
    }
  } finally {
    conn.release();
  }
  for (const cb of callbacks) cb();
  return result;
}
