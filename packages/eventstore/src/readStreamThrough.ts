import type { AnySql } from '@qiraa/db';
import { readStreamsWithin } from './postgres/readStream';
import type { EventStore, ReadStreamWithinOptions, RecordedEvent } from './types';

/**
 * A stream read for a command: through `sql` (its transaction) where the store can (`readStreamWithin`),
 * else through the store's own `readStream`, filtered to `types` (data whole). Domain code calls this
 * instead of asking which adapter it runs on.
 */
export async function readStreamThrough(
  store: EventStore,
  sql: AnySql,
  streamId: string,
  options: ReadStreamWithinOptions = {},
): Promise<RecordedEvent[]> {
  if (store.readStreamWithin) return store.readStreamWithin(sql, streamId, options);
  const events = await store.readStream(streamId);
  const types = options.types;
  return types ? events.filter((e) => types.includes(e.type)) : events;
}

/**
 * Several streams for a command or a read, each in stream order (grouped by stream): through `sql` where the
 * store can, else one `readStream` each. Without a store the log is the PostgreSQL one beside the read models.
 */
export async function readStreamsThrough(
  store: Pick<EventStore, 'readStream' | 'readStreamsWithin'> | undefined,
  sql: AnySql,
  streamIds: readonly string[],
): Promise<RecordedEvent[]> {
  if (!store) return readStreamsWithin(sql, streamIds);
  if (store.readStreamsWithin) return store.readStreamsWithin(sql, streamIds);
  const events: RecordedEvent[] = [];
  for (const id of [...streamIds].sort()) events.push(...(await store.readStream(id)));
  return events;
}
