import type { Checkpoint } from '../types';

/** A PostgreSQL log position: writing transaction id, then global position (Emmett's composite checkpoint). */
export interface PgPosition {
  transactionId: string;
  globalPosition: bigint;
}

export function encodeCheckpoint(position: PgPosition): Checkpoint {
  return `${position.transactionId}:${position.globalPosition}`;
}

export function decodeCheckpoint(checkpoint: Checkpoint | null | undefined): PgPosition {
  if (!checkpoint) return { transactionId: '0', globalPosition: 0n };
  const match = /^(\d+):(\d+)$/.exec(checkpoint);
  if (!match) throw new Error(`not a PostgreSQL event-store checkpoint: ${checkpoint}`);
  return { transactionId: match[1]!, globalPosition: BigInt(match[2]!) };
}
