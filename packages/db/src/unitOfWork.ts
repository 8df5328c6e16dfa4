import type { Sql, TransactionSql } from './connect';
import { type ReservedSql, reserveWithin } from './reserveWithin';
import { writeCombinerOf } from './writeCombiner';

/** A transaction plus callbacks that run only once it has committed (e.g. waking projections). */
export interface UnitOfWork {
  readonly sql: TransactionSql;
  afterCommit(callback: () => void): void;
  /**
   * The work's last statements, already sent (queries created and awaited by `last` without waiting for any
   * answer first): COMMIT goes right behind them on the connection (pipelined, one round trip less) and
   * `last` is returned. Only for statements whose success is the whole decision: anything that, after an
   * answer, could still refuse must be decided before. A statement that fails aborts the transaction, so the
   * COMMIT behind it rolls back and `inTransaction` throws that statement's error. Nothing may be sent after.
   */
  commitAfter?<T>(last: Promise<T>): Promise<T>;
}

/** `uow.commitAfter(last)` where the unit of work commits itself (`inTransaction`), else just `last`. */
export function commitAfter<T>(uow: UnitOfWork, last: Promise<T>): Promise<T> {
  return uow.commitAfter ? uow.commitAfter(last) : last;
}

/** How a transaction begins and how long it may wait for a connection (defaults: read committed, the pool bound). */
export interface TransactionOptions {
  /** `repeatable read`: one snapshot for every statement (e.g. the event store's readAll). */
  isolation?: 'read committed' | 'repeatable read' | 'serializable';
  readOnly?: boolean;
  /**
   * `unbounded`: wait for a connection as long as it takes, as background work (projection batches and
   * rebuilds, the log reader) always did; requests keep the bound so they fail fast during an outage.
   */
  poolWait?: 'bounded' | 'unbounded';
  /**
   * Share a transaction and its commit with the units of work that arrive at about the same time, when this
   * process turned the write combiner on (`enableWriteCombiner`, WRITE_COMBINE_MS); a plain transaction
   * otherwise. Each is still decided on its own state and refused alone, and its promise resolves only after
   * the shared COMMIT. Only for work that is safe to run twice, sets nothing with `set local` and names what it
   * locks in `combineKey` (writeCombiner.ts says why).
   */
  combine?: boolean;
  /**
   * What the work locks (a student id, a stream id): combined units with one key run in one lane, so two
   * lanes never wait for each other's locks (WRITE_COMBINE_LANES).
   */
  combineKey?: string | number;
}

/**
 * Runs `work` in a transaction on a connection reserved first. Settings it makes with `set local` (or
 * `set_config(..., true)`) last until the transaction ends, as in any transaction. Not `sql.begin`: postgres.js 3.4.9 can send
 * its BEGIN pipelined behind other queries without reserving the connection (porsager/postgres#1189, #823),
 * which under load answers UNSAFE_TRANSACTION or lets other requests' queries run inside the transaction.
 * `reserve()` hands out only an idle connection, so BEGIN, the work and COMMIT run alone on it; the wait for
 * one is bounded (`reserveWithin`), so a transaction during an outage fails fast instead of queueing.
 */
export async function inTransaction<T>(
  sql: Sql,
  work: (uow: UnitOfWork) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  if (options.combine) {
    const combiner = writeCombinerOf(sql);
    if (combiner) return combiner.run(work, options.combineKey);
  }
  const callbacks: Array<() => void> = [];
  const conn = options.poolWait === 'unbounded' ? await sql.reserve() : await reserveWithin(sql);
  let result: T;
  try {
    // Sent now, not awaited: the work's first statement goes out with it (one round trip less per
    // transaction). BEGIN on an idle reserved connection fails only with the connection, which fails the
    // statements behind it too; its outcome is still checked before COMMIT.
    const begun = (
      options.isolation || options.readOnly ? conn.unsafe(beginStatement(options)) : conn`begin`
    ).execute();
    begun.catch(() => {}); // awaited below when the work succeeds; the work's own error wins otherwise
    let committing: Promise<{ command: string }> | null = null;
    const commitAfter = async <L>(last: Promise<L>): Promise<L> => {
      if (committing) throw new Error('commitAfter: the transaction is already committing');
      // A macrotask later: every statement `last` created has been handed to the connection (in microtasks).
      committing = new Promise<void>((resolve) => setImmediate(resolve)).then(() => conn`commit`.execute());
      committing.catch(() => {}); // awaited below when the work succeeds
      return await last;
    };
    try {
      result = await work({
        sql: withSavepoints(conn),
        afterCommit: (cb) => callbacks.push(cb),
        commitAfter,
      });
      await begun;
      if (committing) {
        // PostgreSQL answers COMMIT of an aborted transaction with ROLLBACK (no error).
        const done = await (committing as Promise<{ command: string }>);
        if (done.command !== 'COMMIT') throw new Error(`transaction ended ${done.command}, not COMMIT`);
      } else await conn`commit`;
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

/** Built from the closed option values only, so nothing outside them reaches the statement. */
const ISOLATION_LEVELS = new Set(['read committed', 'repeatable read', 'serializable']);
function beginStatement(options: TransactionOptions): string {
  if (options.isolation && !ISOLATION_LEVELS.has(options.isolation)) {
    throw new Error(`unknown isolation level: ${options.isolation}`);
  }
  const modes = [
    options.isolation ? `isolation level ${options.isolation}` : null,
    options.readOnly ? 'read only' : null,
  ];
  return `begin ${modes.filter((m) => m !== null).join(' ')}`;
}

/**
 * The reserved connection as the transaction it now runs: with `savepoint`, as `sql.begin` hands out (a
 * statement that may fail without failing the transaction). Added to this reservation's own handle only.
 */
function withSavepoints(conn: ReservedSql): TransactionSql {
  let next = 0;
  const tx = conn as unknown as TransactionSql;
  const savepoint = async (nameOrWork: unknown, maybeWork?: unknown) => {
    const work = (typeof nameOrWork === 'function' ? nameOrWork : maybeWork) as (sql: TransactionSql) => unknown;
    const name = `s${next++}`;
    await conn.unsafe(`savepoint ${name}`);
    try {
      const done = await work(tx);
      const result = Array.isArray(done) ? await Promise.all(done) : done;
      await conn.unsafe(`release savepoint ${name}`);
      return result;
    } catch (error) {
      await conn.unsafe(`rollback to savepoint ${name}`);
      throw error;
    }
  };
  return Object.assign(tx, { savepoint }) as TransactionSql;
}
