import type { Checkpoint } from '@qiraa/eventstore';
import { readCheckpoints } from './checkpointStore';
import type { Projection } from './projection';
import type { RunnerDeps } from './runProjectionBatch';

export interface ProjectionStatus {
  name: string;
  version: number;
  storedVersion: number | null;
  checkpoint: Checkpoint | null;
  head: Checkpoint | null;
  /** Events of the handled types after the checkpoint. */
  lag: number;
  eventsApplied: number;
  updatedAt: Date | null;
  rebuiltAt: Date | null;
  needsRebuild: boolean;
}

export async function projectionStatus(
  deps: RunnerDeps,
  projections: readonly Projection[],
): Promise<ProjectionStatus[]> {
  const stored = await readCheckpoints(deps.sql);
  const head = await deps.store.head();
  return Promise.all(
    projections.map(async (p) => {
      const row = stored.get(p.name);
      return {
        name: p.name,
        version: p.version,
        storedVersion: row?.version ?? null,
        checkpoint: row?.checkpoint ?? null,
        head,
        lag: await deps.store.countAfter(row?.checkpoint ?? null, p.handles),
        eventsApplied: Number(row?.eventsApplied ?? 0n),
        updatedAt: row?.updatedAt ?? null,
        rebuiltAt: row?.rebuiltAt ?? null,
        needsRebuild: row !== undefined && row.version < p.version,
      };
    }),
  );
}
