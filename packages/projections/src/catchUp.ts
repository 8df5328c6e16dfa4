import type { Projection } from './projection';
import { rebuildProjection } from './rebuildProjection';
import { type RunnerDeps, runProjectionBatch } from './runProjectionBatch';

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

/** Runs batches until the projection reaches the visible head; rebuilds first if its version moved on. */
export async function catchUp(deps: RunnerDeps, projection: Projection, batchSize = 500): Promise<CatchUpResult> {
  let applied = 0;
  let rebuilt = false;
  for (;;) {
    const result = await runProjectionBatch(deps, projection, batchSize);
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
