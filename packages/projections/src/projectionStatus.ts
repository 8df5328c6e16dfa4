import type { Checkpoint } from '@qiraa/eventstore';
import { readCheckpoints } from './checkpointStore';
import type { Projection } from './projection';
import { oldestUnprojected } from './projectionStalls';
import type { RunnerDeps } from './runProjectionBatch';

export interface ProjectionStatus {
  name: string;
  version: number;
  storedVersion: number | null;
  checkpoint: Checkpoint | null;
  head: Checkpoint | null;
  /** Events of the handled types after the checkpoint. */
  lag: number;
  /**
   * Age in seconds of the oldest event of the handled types after the checkpoint (0 when none waits), on the
   * database's clock, the one that stamped the events: how stale the read model is, whatever the event count.
   */
  lagSeconds: number;
  eventsApplied: number;
  updatedAt: Date | null;
  rebuiltAt: Date | null;
  needsRebuild: boolean;
}

export async function projectionStatus(
  deps: RunnerDeps,
  projections: readonly Projection[],
): Promise<ProjectionStatus[]> {
  const [stored, head, [clock]] = await Promise.all([
    readCheckpoints(deps.sql),
    deps.store.head(),
    // A measurement, not a decision: the events' createdAt is the database's clock, so their age is too.
    deps.sql<{ now: Date }[]>`select now() as now`,
  ]);
  return Promise.all(
    projections.map(async (p) => {
      const row = stored.get(p.name);
      const after = row?.checkpoint ?? null;
      const [lag, at] = await Promise.all([
        deps.store.countAfter(after, p.handles),
        oldestUnprojected(deps, after, p.handles),
      ]);
      return {
        name: p.name,
        version: p.version,
        storedVersion: row?.version ?? null,
        checkpoint: after,
        head,
        lag,
        lagSeconds: at && clock ? Math.max(0, (clock.now.getTime() - at.getTime()) / 1000) : 0,
        eventsApplied: Number(row?.eventsApplied ?? 0n),
        updatedAt: row?.updatedAt ?? null,
        rebuiltAt: row?.rebuiltAt ?? null,
        needsRebuild: row !== undefined && row.version < p.version,
      };
    }),
  );
}
