import {
  type AllStreamRecordedEvent,
  BACKWARDS,
  END,
  type EventStoreDBClient,
  type ReadPosition,
} from '@eventstore/db-client';
import type { Checkpoint } from '../types';
import { encodeCheckpoint } from './checkpoint';
import { isSystemType } from './eventTypes';

const PAGE = 32;

/** Newest non-system event of $all, read backwards a page at a time past KurrentDB's own trailing events. */
export async function head(client: EventStoreDBClient): Promise<Checkpoint | null> {
  let from: ReadPosition = END;
  let below: bigint | null = null;
  for (;;) {
    const page = await readBackwards(client, from);
    // Whether a backward read repeats its start position is not relied on: anything not older is skipped.
    const older = page.filter((event) => below === null || event.position.commit < below);
    const newest = older.find((event) => !isSystemType(event.type));
    if (newest) return encodeCheckpoint(newest.position);
    const oldest = older.at(-1);
    if (page.length < PAGE || !oldest) return null;
    below = oldest.position.commit;
    from = oldest.position;
  }
}

async function readBackwards(client: EventStoreDBClient, from: ReadPosition): Promise<AllStreamRecordedEvent[]> {
  const events: AllStreamRecordedEvent[] = [];
  for await (const resolved of client.readAll({ direction: BACKWARDS, fromPosition: from, maxCount: PAGE })) {
    if (resolved.event) events.push(resolved.event);
  }
  return events;
}
