import type { Projection } from './projection';
import { rebuildProjection } from './rebuildProjection';
import { type BatchRead, type RunnerDeps, readProjectionBatch, runProjectionBatch } from './runProjectionBatch';

/**
 * Whether the run may have left events behind: they sit behind an older open transaction, or another
 * instance held the projection and may have read before they were visible. The caller looks again soon.
 */
export const needsAnotherLook = (result: CatchUpResult) =>
  result.kind === 'busy' || (result.kind === 'caught_up' && result.waiting);

export type CatchUpResult =
  /** `waiting`: committed events sit behind an older open transaction; look again shortly. */
  | { kind: 'caught_up'; applied: number; rebuilt: boolean; waiting: boolean }
  | { kind: 'busy'; applied: number }
  | { kind: 'newer_version_stored'; storedVersion: number };

/**
 * Runs batches until the projection reaches the visible head; rebuilds first if its version moved on.
 * While a batch is applied, the next one is already read (on another pool connection) after the checkpoint
 * the batch leaves, so reading and writing overlap; a read made stale by another instance is dropped.
 */
export async function catchUp(deps: RunnerDeps, projection: Projection, batchSize = 500): Promise<CatchUpResult> {
  let applied = 0;
  let rebuilt = false;
  let ahead: Promise<BatchRead> | null = null;
  const readAhead = (read: BatchRead) => {
    if (!read.batch || read.batch.caughtUp) return null;
    const next = readProjectionBatch(deps, projection, batchSize, {
      version: read.seen.version,
      checkpoint: read.batch.checkpoint,
    });
    next.catch(() => {}); // awaited below or dropped; a failed read-ahead must not end the process
    return next;
  };
  for (;;) {
    const read: BatchRead = await (ahead ?? readProjectionBatch(deps, projection, batchSize));
    ahead = readAhead(read);
    const result = await runProjectionBatch(deps, projection, batchSize, read);
    if (result.kind !== 'applied' || result.stale) ahead = null;
    switch (result.kind) {
      case 'busy':
        return { kind: 'busy', applied };
      case 'newer_version_stored':
        return result;
      case 'needs_rebuild':
        await rebuildProjection(deps, projection, { batchSize });
        rebuilt = true;
        continue;
      case 'applied':
        applied += result.applied;
        if (result.caughtUp) return { kind: 'caught_up', applied, rebuilt, waiting: result.waiting };
    }
  }
}
