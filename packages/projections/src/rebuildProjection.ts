import { inTransaction } from '@qiraa/db';
import { type Checkpoint, type ReadAllResult, untilNothingWaiting } from '@qiraa/eventstore';
import { replaceCheckpoint } from './checkpointStore';
import type { Projection, ProjectionContext } from './projection';
import type { RunnerDeps } from './runProjectionBatch';
import { createShadowTable, shadowName, swapInShadowTable } from './shadowTables';
import { type SwapLockOptions, withSwapLocks } from './swapLocks';

export interface RebuildProgress {
  applied: number;
  /** Matching events visible when the rebuild started; more may arrive while it runs. */
  total: number;
}

export interface RebuildResult {
  applied: number;
  checkpoint: Checkpoint | null;
}

/**
 * Replays the log from the start into shadow tables while the live read model keeps serving, then in one
 * transaction takes the live tables and the projection's lock (swapLocks.ts), applies what arrived meanwhile
 * and swaps the shadows in.
 */
export async function rebuildProjection(
  deps: RunnerDeps,
  projection: Projection,
  options: {
    batchSize?: number;
    settleTimeoutMs?: number;
    onProgress?: (progress: RebuildProgress) => void;
    swap?: SwapLockOptions;
  } = {},
): Promise<RebuildResult> {
  const limit = options.batchSize ?? 1000;
  const { sql, store } = deps;
  await inTransaction(
    sql,
    async ({ sql: tx }) => {
      for (const table of projection.tables) await createShadowTable(tx, table);
    },
    { poolWait: 'unbounded' },
  );
  const total = await store.countAfter(null, projection.handles);
  let applied = 0;
  let checkpoint: Checkpoint | null = null;
  options.onProgress?.({ applied, total });

  const applyBatches = async (tx: ProjectionContext['sql'], untilCaughtUp: boolean) => {
    const ctx: ProjectionContext = { sql: tx, table: shadowName, runner: deps };
    for (;;) {
      const batch = await store.readAll({ after: checkpoint, limit, types: projection.handles });
      if (batch.events.length > 0) await projection.applyBatch(ctx, batch.events);
      applied += batch.events.length;
      checkpoint = batch.checkpoint;
      options.onProgress?.({ applied, total: Math.max(total, applied) });
      if (batch.caughtUp || !untilCaughtUp) return batch.caughtUp;
    }
  };

  // Fill: one transaction per batch, so a long replay holds no lock and no old snapshot; the next batch is
  // read while one is applied. The fill commits without waiting for the WAL flush (synchronous_commit
  // off): it writes only the shadow tables, and the swap below commits durably, which flushes the WAL up to
  // it, fill batches included. A crash before the swap loses at most the tail of a rebuild that starts over
  // anyway (the shadows are created afresh). Then wait (briefly, and before taking the lock an inline
  // applier may be waiting for) for events held behind an older transaction, so the rebuilt model reaches
  // everything committed before the swap.
  const read = (after: Checkpoint | null) => {
    const next = store.readAll({ after, limit, types: projection.handles });
    next.catch(() => {}); // awaited below unless the fill fails first
    return next;
  };
  const fill = async () => {
    let next: Promise<ReadAllResult> = read(checkpoint);
    for (;;) {
      const batch = await next;
      if (!batch.caughtUp) next = read(batch.checkpoint);
      await inTransaction(
        sql,
        async ({ sql: tx }) => {
          await Promise.all([
            // Only shadow tables are written here, unless the projection is a reactor (no tables): a reactor
            // appends events others read at once, so its batches commit durably.
            projection.tables.length > 0 ? tx`set local synchronous_commit = off` : null,
            batch.events.length > 0
              ? projection.applyBatch({ sql: tx, table: shadowName, runner: deps }, batch.events)
              : null,
          ]);
        },
        { poolWait: 'unbounded' },
      );
      applied += batch.events.length;
      checkpoint = batch.checkpoint;
      options.onProgress?.({ applied, total: Math.max(total, applied) });
      if (batch.caughtUp) return;
    }
  };
  await fill();
  if (await untilNothingWaiting(store, { timeoutMs: options.settleTimeoutMs ?? 10_000 })) await fill();
  // The swap: the live tables, then the projection's lock (the one lock order, advisoryLock.ts), each wait
  // bounded; a swap that had to let go starts again from the fill's position, its writes rolled back.
  const filled = { applied, checkpoint };
  await withSwapLocks(
    sql,
    projection,
    async (tx) => {
      applied = filled.applied;
      checkpoint = filled.checkpoint;
      await applyBatches(tx, true);
      // Events committed after an older transaction that was open at readAll's last snapshot (another
      // projection's batch, a reaction, a writer waiting for these very locks) were held back by it, but their
      // commands wrote them into the live tables dropped here: apply every committed event after the checkpoint,
      // leaving the checkpoint before them (the runner applies them again, harmlessly). Read now, under the
      // locks: every writer of the old tables has committed. Not only what is still held back: the older
      // transaction may have ended since readAll's snapshot (found by rebuildBesideIngest: 5 of 530 rows lost).
      const heldBack = (await store.readHeldBack?.(checkpoint, projection.handles)) ?? [];
      if (heldBack.length > 0) await projection.applyBatch({ sql: tx, table: shadowName, runner: deps }, heldBack);
      for (const table of projection.tables) await swapInShadowTable(tx, table);
      await replaceCheckpoint(tx, projection.name, projection.version, checkpoint, BigInt(applied));
    },
    options.swap,
  );
  return { applied, checkpoint };
}
