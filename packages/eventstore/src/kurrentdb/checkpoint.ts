import type { Position } from '@eventstore/db-client';
import type { Checkpoint } from '../types';

/** A KurrentDB checkpoint is the event's commit position as a decimal string (Emmett's choice too). */
export function encodeCheckpoint(position: Position): Checkpoint {
  return position.commit.toString(10);
}

export function decodeCheckpoint(checkpoint: Checkpoint | null | undefined): Position | null {
  if (!checkpoint) return null;
  if (!/^\d+$/.test(checkpoint)) throw new Error(`not a KurrentDB event-store checkpoint: ${checkpoint}`);
  const commit = BigInt(checkpoint);
  // An event appended over gRPC is its own implicit commit, so its prepare position equals its commit position.
  return { commit, prepare: commit };
}
