import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { tryLockProjection } from './advisoryLock';
import { loadCheckpoint, saveCheckpoint } from './checkpointStore';
import type { Projection } from './projection';

export interface RunnerDeps {
  /** Where read models and checkpoints live. */
  readonly sql: Sql;
  readonly store: EventStore;
}

export type BatchResult =
  | { kind: 'applied'; applied: number; caughtUp: boolean; waiting: boolean }
  /** Another instance holds this projection's lock and is doing the work. */
  | { kind: 'busy' }
  /** The stored read model was built by an older version of the projection. */
  | { kind: 'needs_rebuild'; storedVersion: number }
  /** The stored read model is newer than this code (a deploy in progress): leave it alone. */
  | { kind: 'newer_version_stored'; storedVersion: number };

/**
 * One batch: read after the checkpoint, apply, move the checkpoint, all in one transaction, so a batch
 * either happened entirely or not at all (exactly-once effect on the read model).
 */
export async function runProjectionBatch(deps: RunnerDeps, projection: Projection, limit = 500): Promise<BatchResult> {
  return (await deps.sql.begin(async (tx) => {
    if (!(await tryLockProjection(tx, projection.name))) return { kind: 'busy' };
    const stored = await loadCheckpoint(tx, projection.name, projection.version);
    if (stored.version < projection.version) return { kind: 'needs_rebuild', storedVersion: stored.version };
    if (stored.version > projection.version) return { kind: 'newer_version_stored', storedVersion: stored.version };
    const batch = await deps.store.readAll({ after: stored.checkpoint, limit, types: projection.handles });
    const ctx = { sql: tx, table: (name: string) => name };
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
  })) as BatchResult;
}
