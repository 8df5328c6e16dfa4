import { type EventStoreDBClient, START } from '@eventstore/db-client';
import type { Checkpoint } from '../types';
import { decodeCheckpoint } from './checkpoint';
import { typeMatcher } from './eventTypes';

/** Scans $all to its end: KurrentDB keeps no count per type, and a status command can afford the walk. */
export async function countAfter(
  client: EventStoreDBClient,
  after: Checkpoint | null,
  types?: readonly string[],
): Promise<number> {
  const from = decodeCheckpoint(after);
  const wanted = typeMatcher(types);
  let count = 0;
  for await (const resolved of client.readAll({ fromPosition: from ?? START })) {
    const event = resolved.event;
    if (!event || (from && event.position.commit <= from.commit)) continue;
    if (wanted(event.type)) count++;
  }
  return count;
}
