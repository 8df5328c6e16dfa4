import type { Sql, TransactionSql } from './connect';

/** A transaction plus callbacks that run only once it has committed (e.g. waking projections). */
export interface UnitOfWork {
  readonly sql: TransactionSql;
  afterCommit(callback: () => void): void;
}

export async function inTransaction<T>(sql: Sql, work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
  const callbacks: Array<() => void> = [];
  const result = await sql.begin(async (tx) => work({ sql: tx, afterCommit: (cb) => callbacks.push(cb) }));
  for (const cb of callbacks) cb();
  return result as T;
}
