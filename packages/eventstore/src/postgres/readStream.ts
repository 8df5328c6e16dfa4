import type { AnySql } from '@qiraa/db';
import type { ReadStreamOptions, ReadStreamWithinOptions, RecordedEvent } from '../types';
import { EVENT_COLUMNS, type EventRow, toRecordedEvent } from './eventRow';

export async function readStream(
  sql: AnySql,
  streamId: string,
  options: ReadStreamOptions = {},
): Promise<RecordedEvent[]> {
  const rows = await sql<EventRow[]>`
    select ${sql.unsafe(EVENT_COLUMNS)} from es_events
    where stream_id = ${streamId} and stream_version >= ${options.from ?? 1n}
    order by stream_version
    ${options.limit ? sql`limit ${options.limit}` : sql``}`;
  return rows.map(toRecordedEvent);
}

/**
 * `EventStore.readStreamWithin`: one stream through the caller's connection, optionally only some types and,
 * of each event's data, only some top-level keys (looked up one by one, so the rest of a large event's data
 * neither leaves the server nor gets decomposed).
 */
export async function readStreamWithin(
  sql: AnySql,
  streamId: string,
  options: ReadStreamWithinOptions = {},
): Promise<RecordedEvent[]> {
  const types = options.types ? [...options.types] : null;
  const keys = options.dataKeys ? [...options.dataKeys] : null;
  const data = keys
    ? sql`coalesce((select jsonb_object_agg(k, data->k) from unnest(${sql.array(keys)}::text[]) k where data ? k), '{}')`
    : sql`data`;
  const rows = await sql<EventRow[]>`
    select ${sql.unsafe(EVENT_COLUMNS)} from (
      select global_position, transaction_id, stream_id, stream_version, event_id, event_type, schema_version,
             ${data} as data, metadata, created_at
      from es_events
      where stream_id = ${streamId} ${types ? sql`and event_type = any(${sql.array(types)}::text[])` : sql``}
    ) e
    order by stream_version`;
  return rows.map(toRecordedEvent);
}

/** `EventStore.readStreamsWithin`: several streams through the caller's connection, each in stream order. */
export async function readStreamsWithin(sql: AnySql, streamIds: readonly string[]): Promise<RecordedEvent[]> {
  if (streamIds.length === 0) return [];
  const rows = await sql<EventRow[]>`
    select ${sql.unsafe(EVENT_COLUMNS)} from es_events
    where stream_id = any(${sql.array([...streamIds], 1009)}::text[])
    order by stream_id, stream_version`;
  return rows.map(toRecordedEvent);
}
