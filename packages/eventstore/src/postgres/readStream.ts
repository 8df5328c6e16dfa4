import type { AnySql, SqlFragment } from '@qiraa/db';
import type { ReadStreamOptions, ReadStreamWithinOptions, RecordedEvent, StreamInStatement } from '../types';
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

/**
 * `EventStore.streamInStatement`: a stream's events as one jsonb array, an expression a caller puts in its own
 * statement beside its other reads (a command's state read with the rest of what it decides on: one round trip).
 * `streamId` is an expression of that statement (a subquery naming the stream); no stream is `[]`.
 */
export function streamInStatement(sql: AnySql, streamId: SqlFragment): StreamInStatement {
  const expr = sql`(
    select coalesce(jsonb_agg(jsonb_build_object(
      'p', e.global_position::text, 'x', e.transaction_id::text, 's', e.stream_id, 'v', e.stream_version::text,
      'i', e.event_id::text, 't', e.event_type, 'sv', e.schema_version, 'd', e.data, 'm', e.metadata,
      'c', e.created_at) order by e.stream_version), '[]'::jsonb)
    from es_events e where e.stream_id = (${streamId}))`;
  return { expr, parse: parseStreamJson };
}

interface StreamJsonRow {
  p: string;
  x: string;
  s: string;
  v: string;
  i: string;
  t: string;
  sv: number;
  d: unknown;
  m: Record<string, unknown>;
  c: string;
}

/** The array `streamInStatement` selects, as `readStream` answers it (the same `toRecordedEvent`). */
export function parseStreamJson(value: unknown): RecordedEvent[] {
  const rows = (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as StreamJsonRow[];
  return rows.map((r) =>
    toRecordedEvent({
      global_position: BigInt(r.p),
      xid_text: r.x,
      stream_id: r.s,
      stream_version: BigInt(r.v),
      event_id: r.i,
      event_type: r.t,
      schema_version: r.sv,
      data: r.d,
      metadata: r.m,
      created_at: new Date(r.c),
    }),
  );
}
