import type { Sql, TransactionSql } from './connect';
import { isDatabaseUnavailable } from './databaseUnavailable';
import { type ReservedSql, reserveWithin } from './reserveWithin';
import { inTransaction, type UnitOfWork } from './unitOfWork';

/** How a process combines the units of work that opt in (`inTransaction(sql, work, { combine: true })`). */
export interface WriteCombinerOptions {
  /** How long a batch takes new units of work after its first one arrived (WRITE_COMBINE_MS). */
  windowMs: number;
  /** Most units of work one batch (one transaction, one commit) takes (WRITE_COMBINE_MAX). */
  maxBatch: number;
  /**
   * Lanes that run batches side by side (WRITE_COMBINE_LANES, default 1). A unit of work with a key always
   * goes to the same lane (the key's hash), so units that lock the same things (one student, one stream)
   * meet in one lane; units without a key are spread round-robin.
   */
  lanes?: number;
}

/** What the combiner has done so far (the bench prints it; a test reads it). */
export interface WriteCombinerStats {
  /** Batches that reached COMMIT (committed or not). */
  batches: number;
  /** Units of work that ran in a batch (each once, however it ended). */
  units: number;
  /** Units of work rolled back to their savepoint (their own error; the others went on). */
  rolledBack: number;
  /** Units of work chosen as a deadlock or serialization victim in a batch, then run alone. */
  retriedAlone: number;
  /** Batches whose COMMIT (or connection) failed: every unit of work in them was refused. */
  failedBatches: number;
  /** Batches run side by side first in which a unit failed: rolled back whole and run again one by one. */
  fallbacks: number;
  /** The largest batch so far. */
  largestBatch: number;
}

export interface WriteCombiner {
  readonly options: WriteCombinerOptions;
  /** `key`: what the unit of work locks (a student, a stream): units with one key share a lane. */
  run<T>(work: (uow: UnitOfWork) => Promise<T>, key?: string | number): Promise<T>;
  stats(): WriteCombinerStats;
}

interface Job {
  work: (uow: UnitOfWork) => Promise<unknown>;
  key: string | number | undefined;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  callbacks: Array<() => void>;
  result?: unknown;
}

interface Batch {
  queue: Job[];
  accepting: boolean;
  size: number;
  /** Wakes the driver when a job arrives or the batch stops taking new ones. */
  nudge: (() => void) | null;
  timer: NodeJS.Timeout | null;
}

// Errors that depend on which other transactions ran at once, not on the unit of work (a deadlock with a
// transaction outside the batch, a serialization failure): the unit runs again alone once its batch has ended.
const RETRY_ALONE = new Set(['40P01', '40001']);

/**
 * A per-process write combiner: units of work that arrive while a batch takes them (at most `windowMs` from
 * its turn, at most `maxBatch`) run on one reserved connection inside ONE transaction and share ONE COMMIT
 * (one WAL flush instead of one each: PostgreSQL's group commit done by the client, the way TigerBeetle batches
 * requests). docs/architecture.md, "The write combiner".
 *
 * - Side by side first: units with different keys run at once, their statements pipelined on the connection;
 *   units with the same key one after the other (each sees what the earlier wrote); a unit without a key alone.
 * - A unit that throws: the batch is rolled back whole and every unit runs again one by one, each in its own
 *   SAVEPOINT; the failing one is rolled back to its savepoint (its locks too) and refused with its own error,
 *   the others commit. A conflict or a refusal in one never fails the others.
 * - Durable before acknowledged: a unit's promise resolves only after the batch's COMMIT returned
 *   (synchronous_commit on: flushed). If COMMIT or the connection fails, every unit of the batch is refused
 *   with that error: none was acknowledged, and callers retry as on any error. A lost connection ends the
 *   batch at once (statements queued on a reserved connection whose socket closed may never settle).
 * - `afterCommit` callbacks of the committed units run after the shared COMMIT.
 * - One batch of a lane runs units at a time (the next starts once this one sent COMMIT): two batches would
 *   each hold their earlier units' locks until their one COMMIT and deadlock where the units alone only wait.
 *   Lanes (`lanes`) run side by side; a key always maps to the same lane.
 * - A batch commits as soon as nothing is waiting or running; under load the next batch fills while this one
 *   runs. A lone unit therefore waits for no window.
 *
 * Units that opt in must be safe to run twice (no effect outside the transaction but `afterCommit`), must not
 * change session state for the batch (`set local` lasts to the shared COMMIT), and must name in their key
 * anything they lock that another unit could (a student, a stream).
 */
export function writeCombiner(sql: Sql, options: WriteCombinerOptions): WriteCombiner {
  const lanes = options.lanes ?? 1;
  if (!(options.windowMs >= 0) || !(options.maxBatch >= 1) || !(lanes >= 1)) {
    throw new RangeError('writeCombiner: bad options');
  }
  const counts: WriteCombinerStats = {
    batches: 0,
    units: 0,
    rolledBack: 0,
    retriedAlone: 0,
    failedBatches: 0,
    fallbacks: 0,
    largestBatch: 0,
  };
  const all = Array.from({ length: lanes }, () => combinerLane(sql, options, counts));
  let spread = 0;
  const laneOf = (key: string | number | undefined): number => {
    if (key === undefined) return spread++ % lanes;
    if (typeof key === 'number') return Math.abs(Math.trunc(key)) % lanes;
    let h = 2166136261; // FNV-1a
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
    return (h >>> 0) % lanes;
  };
  return {
    options,
    run: (work, key) => all[laneOf(key)]!(work, key),
    stats: () => ({ ...counts }),
  };
}

/** One lane: its batches run their units one batch at a time. */
function combinerLane(
  sql: Sql,
  options: WriteCombinerOptions,
  counts: WriteCombinerStats,
): <T>(work: (uow: UnitOfWork) => Promise<T>, key: string | number | undefined) => Promise<T> {
  let open: Batch | null = null;

  const close = (batch: Batch) => {
    batch.accepting = false;
    if (batch.timer) clearTimeout(batch.timer);
    batch.timer = null;
    if (open === batch) open = null;
    batch.nudge?.();
  };

  // Only one batch of a lane runs its units at a time; the next one starts as soon as this one has sent its COMMIT.
  // Two batches running units at once would each hold their earlier units' locks while a later unit waits
  // for the other's: a deadlock (found by the HTTP spec: 17 of 46 requests with three students). A batch
  // waiting for its turn takes units (up to maxBatch): the busier the database, the fuller the batches.
  let lane: Promise<void> = Promise.resolve();

  function run<T>(work: (uow: UnitOfWork) => Promise<T>, key: string | number | undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job: Job = { work, key, resolve: resolve as (v: unknown) => void, reject, callbacks: [] };
      let batch = open;
      if (!batch) {
        batch = { queue: [], accepting: true, size: 0, nudge: null, timer: null };
        open = batch;
        const turn = lane;
        let done!: () => void;
        lane = new Promise<void>((resolve) => {
          done = resolve;
        });
        void drive(batch, turn, done);
      }
      batch.queue.push(job);
      batch.size += 1;
      if (batch.size >= options.maxBatch) close(batch);
      batch.nudge?.();
    });
  }

  const refuseAll = (jobs: Iterable<Job>, error: unknown) => {
    for (const job of jobs) job.reject(error);
  };

  /** Runs the batch's units as they come, side by side where their keys differ; stops starting any once one failed. */
  async function sideBySide(
    batch: Batch,
    uowOf: (job: Job) => UnitOfWork,
  ): Promise<{ failed: boolean; error: unknown; jobs: Job[] }> {
    const jobs: Job[] = [];
    let failed = false;
    let firstError: unknown = null;
    // A lost connection: statements queued behind the failed one on the reserved connection may never settle
    // (postgres.js keeps a reserved connection's queue when its socket closes), so the batch stops waiting.
    let lost!: () => void;
    const connectionLost = new Promise<void>((resolve) => {
      lost = resolve;
    });
    const chains = new Map<string | number, Promise<void>>();
    const inflight = new Set<Promise<void>>();
    const start = async (job: Job) => {
      if (failed) return;
      try {
        job.result = await job.work(uowOf(job));
      } catch (error) {
        if (!failed) firstError = error;
        failed = true;
        if (isDatabaseUnavailable(error)) lost();
      }
    };
    for (;;) {
      if (batch.queue.length === 0) {
        // Nothing waiting and nothing running: commit now rather than wait out the window for company (under
        // load, company arrives while units run and while the batch before this one runs).
        if (!batch.accepting || inflight.size === 0) {
          close(batch);
          break;
        }
        await Promise.race([
          new Promise<void>((wake) => {
            batch.nudge = wake;
          }),
          connectionLost,
          ...inflight,
        ]);
        batch.nudge = null;
        continue;
      }
      const job = batch.queue.shift()!;
      counts.units += 1;
      jobs.push(job);
      if (failed) continue;
      if (job.key === undefined) {
        await Promise.race([Promise.all(inflight), connectionLost]);
        await Promise.race([start(job), connectionLost]);
        continue;
      }
      const running = (chains.get(job.key) ?? Promise.resolve()).then(() => start(job));
      chains.set(job.key, running);
      inflight.add(running);
      void running.then(() => inflight.delete(running));
    }
    await Promise.race([Promise.all(inflight), connectionLost]);
    return { failed, error: firstError, jobs };
  }

  async function drive(batch: Batch, turn: Promise<void>, passTurn: () => void): Promise<void> {
    let conn: ReservedSql;
    try {
      // The connection is reserved while the batch waits for its turn.
      [conn] = await Promise.all([reserveWithin(sql), turn]);
    } catch (error) {
      void turn.then(passTurn); // the lane's order is kept; the units are refused now
      close(batch);
      counts.failedBatches += 1;
      refuseAll(batch.queue.splice(0), error);
      return;
    }
    // The window runs from the batch's turn: it takes units while its first ones run, then drains.
    if (batch.accepting) batch.timer = setTimeout(() => close(batch), options.windowMs);
    const done: Job[] = [];
    const aloneAfter: Job[] = [];
    // BEGIN, each SAVEPOINT and each RELEASE go out with the statement behind them (not awaited on their
    // own); a failure of one of them is a broken connection, which fails the statements behind it as well.
    const pending: Array<Promise<unknown>> = [];
    const send = (statement: Promise<unknown>) => {
      statement.catch(() => {});
      pending.push(statement);
    };
    let broken: unknown = null;
    let everyone: Job[] = [];
    const uowOf = (job: Job): UnitOfWork => ({
      sql: conn as unknown as TransactionSql,
      afterCommit: (cb) => job.callbacks.push(cb),
    });
    try {
      send(conn`begin`.execute());
      // First side by side: units with different keys run at once, their statements pipelined on the one
      // connection (one with a key after the earlier ones of that key; one without a key alone). No savepoints.
      const first = await sideBySide(batch, uowOf);
      everyone = first.jobs;
      let again: Job[] | null = null;
      if (!first.failed) {
        done.push(...first.jobs);
      } else if (isDatabaseUnavailable(first.error)) {
        // Nothing to roll back or run again on a lost connection: every unit is refused at once (503).
        broken = first.error;
      } else {
        // A unit failed: the transaction may be aborted or hold a part of that unit's writes. All of it goes,
        // and every unit of the batch runs again, one by one in its savepoint (safe to run twice: opt-in rule).
        counts.fallbacks += 1;
        await Promise.all(pending.splice(0)).catch(() => {});
        await conn`rollback`;
        send(conn`begin`.execute());
        again = first.jobs;
        for (const job of again) {
          job.callbacks = [];
          job.result = undefined;
        }
      }
      for (let n = 0; again !== null && n < again.length; n++) {
        const job = again[n]!;
        const savepoint = conn(`u${n}`);
        send(conn`savepoint ${savepoint}`.execute());
        try {
          job.result = await job.work(uowOf(job));
          send(conn`release savepoint ${savepoint}`.execute());
          done.push(job);
        } catch (error) {
          try {
            await Promise.all(pending.splice(0));
            await conn`rollback to savepoint ${savepoint}`;
          } catch (lost) {
            // The connection is gone: nothing of this batch can commit.
            job.reject(error);
            broken = lost;
            break;
          }
          counts.rolledBack += 1;
          if (RETRY_ALONE.has((error as { code?: string }).code ?? '')) aloneAfter.push(job);
          else job.reject(error);
        }
      }
      if (broken === null) {
        const committing = conn`commit`.execute();
        committing.catch(() => {});
        passTurn(); // what the next batch's units wait for now are this batch's locks, released by the commit
        await Promise.all(pending.splice(0));
        await committing;
      }
    } catch (error) {
      broken = error;
    } finally {
      passTurn();
      close(batch);
      if (broken === null) conn.release();
      else if (isDatabaseUnavailable(broken)) {
        // Not awaited: it may queue behind statements that never settle; the server ends the transaction.
        void conn`rollback`.catch(() => {});
        conn.release();
      } else {
        await conn`rollback`.catch(() => {});
        conn.release();
      }
    }
    counts.batches += 1;
    counts.largestBatch = Math.max(counts.largestBatch, batch.size);
    if (broken !== null) {
      counts.failedBatches += 1;
      // A job refused earlier with its own error keeps it (a promise settles once).
      refuseAll([...everyone, ...batch.queue.splice(0)], broken);
      aloneAfter.length = 0;
    } else {
      for (const job of done) {
        job.resolve(job.result);
        for (const cb of job.callbacks) cb();
      }
    }
    for (const job of aloneAfter) {
      counts.retriedAlone += 1;
      // Alone, the unit of work waits for the locks it needs like any transaction.
      inTransaction(sql, job.work).then(job.resolve, job.reject);
    }
  }

  return run;
}

const combiners = new WeakMap<Sql, WriteCombiner>();

/**
 * Turns the combiner on for `sql`'s pool in this process: from now on `inTransaction(sql, work, { combine: true })`
 * goes through it. Call sites that do not opt in are unchanged. Returns the combiner (its stats).
 */
export function enableWriteCombiner(sql: Sql, options: WriteCombinerOptions): WriteCombiner {
  const combiner = writeCombiner(sql, options);
  combiners.set(sql, combiner);
  return combiner;
}

/** Turns it off again (batches under way finish). */
export function disableWriteCombiner(sql: Sql): void {
  combiners.delete(sql);
}

/** The combiner on `sql`'s pool, if this process turned one on. */
export function writeCombinerOf(sql: Sql): WriteCombiner | undefined {
  return combiners.get(sql);
}
