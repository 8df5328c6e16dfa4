import { BACKWARDS, END, type EventStoreDBClient, StreamNotFoundError } from '@eventstore/db-client';
import type { ReadStreamOptions, RecordedEvent } from '../types';
import { toRecordedEvent } from './recordedEvent';

export async function readStream(
  client: EventStoreDBClient,
  streamId: string,
  options: ReadStreamOptions = {},
): Promise<RecordedEvent[]> {
  const from = options.from && options.from > 1n ? options.from : 1n;
  const read = client.readStream(streamId, { fromRevision: from - 1n, maxCount: options.limit || undefined });
  const events: RecordedEvent[] = [];
  try {
    for await (const resolved of read) {
      const event = toRecordedEvent(resolved);
      if (event) events.push(event);
    }
  } catch (error) {
    if (error instanceof StreamNotFoundError) return [];
    throw error;
  }
  return events;
}

/** The stream's version (its event count), 0 when it does not exist. */
export async function streamVersion(client: EventStoreDBClient, streamId: string): Promise<bigint> {
  try {
    for await (const resolved of client.readStream(streamId, {
      direction: BACKWARDS,
      fromRevision: END,
      maxCount: 1,
    })) {
      if (resolved.event) return resolved.event.revision + 1n;
    }
  } catch (error) {
    if (!(error instanceof StreamNotFoundError)) throw error;
  }
  return 0n;
}
