import type { Checkpoint } from '@qiraa/eventstore';
import type { RunnerDeps } from '../runProjectionBatch';
import type { Reaction } from './reaction';
import { parkedCounts, readReactionCheckpoints } from './reactionStore';

export interface ReactionStatus {
  name: string;
  handles: readonly string[];
  checkpoint: Checkpoint | null;
  /** Events of the handled types after the checkpoint. */
  lag: number;
  eventsHandled: number;
  /** Parked and not yet delivered by a retry. */
  parked: number;
  updatedAt: Date | null;
}

export async function reactionStatus(deps: RunnerDeps, reactions: readonly Reaction[]): Promise<ReactionStatus[]> {
  const [stored, parked] = await Promise.all([readReactionCheckpoints(deps.sql), parkedCounts(deps.sql)]);
  return Promise.all(
    reactions.map(async (r) => {
      const row = stored.get(r.name);
      return {
        name: r.name,
        handles: r.handles,
        checkpoint: row?.checkpoint ?? null,
        lag: await deps.store.countAfter(row?.checkpoint ?? null, r.handles),
        eventsHandled: row?.eventsHandled ?? 0,
        parked: parked.get(r.name) ?? 0,
        updatedAt: row?.updatedAt ?? null,
      };
    }),
  );
}
