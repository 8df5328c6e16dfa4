import { type EventStoreDBClient, type Position, START } from '@eventstore/db-client';
import type { ReadAllOptions, ReadAllResult, RecordedEvent } from '../types';
import { decodeCheckpoint, encodeCheckpoint } from './checkpoint';
import { typeMatcher } from './eventTypes';
import { toRecordedEvent } from './recordedEvent';

/**
 * Scans `limit` events of $all after the checkpoint. KurrentDB commits in log order, so a scanned position
 * never gets an earlier neighbour later and the checkpoint may move over system events and other types.
 */
export async function readAll(client: EventStoreDBClient, options: ReadAllOptions): Promise<ReadAllResult> {
  const after = decodeCheckpoint(options.after);
  const wanted = typeMatcher(options.types);
  // A forward read starts at and includes `after`: one more than the limit still fills the page.
  const read = client.readAll({ fromPosition: after ?? START, maxCount: options.limit + 1 });
  const events: RecordedEvent[] = [];
  let scanned = 0;
  let last: Position | null = null;
  for await (const resolved of read) {
    const event = resolved.event;
    if (!event || (after && event.position.commit <= after.commit)) continue;
    // The read is bounded, so it is drained rather than left open by breaking out.
    if (scanned === options.limit) continue;
    scanned++;
    last = event.position;
    if (wanted(event.type)) {
      const recorded = toRecordedEvent(resolved);
      if (recorded) events.push(recorded);
    }
  }
  return {
    events,
    checkpoint: last ? encodeCheckpoint(last) : (options.after ?? null),
    caughtUp: scanned < options.limit,
  };
}
