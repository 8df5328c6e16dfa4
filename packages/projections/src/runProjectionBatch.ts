import { inTransaction, type Sql } from '@qiraa/db';
import type { Checkpoint, EventStore, ReadAllResult } from '@qiraa/eventstore';
import { lockProjectionTables, tryLockProjection } from './advisoryLock';
import { loadCheckpoint, saveCheckpoint } from './checkpointStore';
import type { Projection } from './projection';

export interface RunnerDeps {
  /** Where read models and checkpoints live. */
  readonly sql: Sql;
  readonly store: EventStore;
  /**
   * The runtime's one clock (a consumer that decides, as the decisions reactor's `decidedAt`, reads it): the
   * kernel's `Clock`, spelled structurally because the kernel sits above this package (it names `Projection`).
   */
  readonly clock?: { now(): Date };
}

export type BatchResult =
  /** `stale`: the checkpoint had moved since the batch was read (another instance): nothing applied. */
  | { kind: 'applied'; applied: number; caughtUp: boolean; waiting: boolean; stale?: true }
  /** Another instance holds this projection's lock and is doing the work. */
  | { kind: 'busy' }
  /** The stored read model was built by an older version of the projection. */
  | { kind: 'needs_rebuild'; storedVersion: number }
  /** The stored read model is newer than this code (a deploy in progress): leave it alone. */
  | { kind: 'newer_version_stored'; storedVersion: number };

/**
 * One batch: read after the checkpoint, apply, move the checkpoint, the last two in one transaction, so a
 * batch either happened entirely or not at all (exactly-once effect on the read model).
 *
 * The events are read before the transaction takes the projection's lock, and the checkpoint is checked
 * again under the lock (another instance may have moved it: then nothing is applied and the caller reads
 * again). Reading under the lock needed a second pool connection while holding it: with every other
 * connection in a command waiting for that lock (applyInline takes it shared), the read waited for a
 * connection that never came until PostgreSQL ended the idle transaction 60 s later (found by npm run load).
 */
export async function runProjectionBatch(
  deps: RunnerDeps,
  projection: Projection,
  limit = 500,
  read?: BatchRead,
): Promise<BatchResult> {
  const { seen, batch } = read ?? (await readProjectionBatch(deps, projection, limit));
  return inTransaction(
    deps.sql,
    async ({ sql: tx }): Promise<BatchResult> => {
      // The one lock order (advisoryLock.ts): the tables first, so a rebuild's swap holding them makes this
      // batch wait before it holds the projection's lock, never after.
      await lockProjectionTables(tx, projection, 'row exclusive');
      if (!(await tryLockProjection(tx, projection.name))) return { kind: 'busy' };
      const stored = await loadCheckpoint(tx, projection.name, projection.version);
      if (stored.version < projection.version) return { kind: 'needs_rebuild', storedVersion: stored.version };
      if (stored.version > projection.version) return { kind: 'newer_version_stored', storedVersion: stored.version };
      if (!batch || stored.checkpoint !== seen.checkpoint)
        return { kind: 'applied', applied: 0, caughtUp: false, waiting: false, stale: true };
      const ctx = { sql: tx, table: (name: string) => name, runner: deps };
      if (batch.events.length > 0) await projection.applyBatch(ctx, batch.events);
      if (batch.checkpoint !== stored.checkpoint) {
        await saveCheckpoint(tx, projection.name, batch.checkpoint, batch.events.length);
      }
      return {
        kind: 'applied',
        applied: batch.events.length,
        caughtUp: batch.caughtUp,
        waiting: batch.waiting === true,
      };
    },
    { poolWait: 'unbounded' },
  );
}

/** A batch read before its transaction: the checkpoint it was read after, and the events (null: wrong version). */
export interface BatchRead {
  seen: { version: number; checkpoint: Checkpoint | null };
  batch: ReadAllResult | null;
}

/**
 * Reads the batch after `after` (the stored checkpoint when not given). `catchUp` reads the next batch
 * this way while the current one is applied, after the checkpoint that batch will leave; should another
 * instance move the checkpoint meanwhile, the apply answers `stale` and the read is thrown away.
 */
export async function readProjectionBatch(
  deps: RunnerDeps,
  projection: Projection,
  limit: number,
  after?: BatchRead['seen'],
): Promise<BatchRead> {
  const seen = after ?? (await loadCheckpoint(deps.sql, projection.name, projection.version));
  const batch =
    seen.version === projection.version
      ? await deps.store.readAll({ after: seen.checkpoint, limit, types: projection.handles })
      : null;
  return { seen: { version: seen.version, checkpoint: seen.checkpoint }, batch };
}
