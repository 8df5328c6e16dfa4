import type { AnySql } from '@qiraa/db';
import type { LogQuery, StreamScope, StreamSummary } from '../auditReads';
import type { RecordedEvent } from '../types';
import { decodeCheckpoint } from './checkpoint';
import { E_EVENT_COLUMNS, type EventRow, toRecordedEvent } from './eventRow';
import { inScope } from './streamScope';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `EventStore.readEventsById`. */
export async function readEventsById(
  sql: AnySql,
  eventIds: readonly string[],
  scope?: StreamScope | null,
): Promise<RecordedEvent[]> {
  const ids = eventIds.filter((id) => UUID.test(id));
  if (ids.length === 0) return [];
  const rows = await sql<EventRow[]>`
    select ${sql.unsafe(E_EVENT_COLUMNS)} from es_events e join es_streams s on s.stream_id = e.stream_id
    where e.event_id = any(${sql.array(ids)}::uuid[]) ${inScope(sql, scope)}
    order by e.transaction_id, e.global_position`;
  return rows.map(toRecordedEvent);
}

/** `EventStore.readEventsCausedBy`. */
export async function readEventsCausedBy(
  sql: AnySql,
  eventId: string,
  options: { limit: number; scope?: StreamScope | null },
): Promise<RecordedEvent[]> {
  if (!UUID.test(eventId)) return [];
  const rows = await sql<EventRow[]>`
    select ${sql.unsafe(E_EVENT_COLUMNS)} from es_events e join es_streams s on s.stream_id = e.stream_id
    where e.metadata ? 'causationId' and e.metadata->>'causationId' = ${eventId}
      and e.event_id <> ${eventId}::uuid
      ${inScope(sql, options.scope)}
    order by e.transaction_id, e.global_position limit ${options.limit}`;
  return rows.map(toRecordedEvent);
}

/** `EventStore.readLog`. */
export async function readLog(sql: AnySql, query: LogQuery): Promise<RecordedEvent[]> {
  const at = decodeCheckpoint(query.after ?? null);
  const rows = await sql<EventRow[]>`
    select ${sql.unsafe(E_EVENT_COLUMNS)}
    from es_events e join es_streams s on s.stream_id = e.stream_id
    where (e.transaction_id, e.global_position) > (${at.transactionId}::xid8, ${at.globalPosition})
      and e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
      ${query.types?.length ? sql`and e.event_type = any(${sql.array([...query.types])}::text[])` : sql``}
      ${query.category ? sql`and s.stream_type = ${query.category}` : sql``}
      ${query.from ? sql`and e.created_at >= ${query.from}` : sql``}
      ${query.to ? sql`and e.created_at < ${query.to}` : sql``}
      ${inScope(sql, query.scope)}
    order by e.transaction_id, e.global_position
    limit ${query.limit}`;
  return rows.map(toRecordedEvent);
}

/** `EventStore.readStreamsInLogOrder`. */
export async function readStreamsInLogOrder(sql: AnySql, streamIds: readonly string[]): Promise<RecordedEvent[]> {
  if (streamIds.length === 0) return [];
  const rows = await sql<EventRow[]>`
    select ${sql.unsafe(E_EVENT_COLUMNS)} from es_events e
    where e.stream_id = any(${sql.array([...streamIds])}::text[])
    order by e.transaction_id, e.global_position`;
  return rows.map(toRecordedEvent);
}

/** `EventStore.streamExists`. */
export async function streamExists(sql: AnySql, streamId: string, scope?: StreamScope | null): Promise<boolean> {
  const [row] = await sql`select 1 as ok from es_streams s where s.stream_id = ${streamId} ${inScope(sql, scope)}`;
  return row !== undefined;
}

/** `EventStore.studentStreams`: from the index es_append keeps (es_stream_students, migration 0044). */
export async function studentStreams(
  sql: AnySql,
  studentId: number,
  options: { after?: string | null; limit: number; scope?: StreamScope | null },
): Promise<StreamSummary[]> {
  const after = options.after ?? null;
  const rows = await sql<
    { stream_id: string; stream_type: string; version: bigint; first_at: Date | null; last_at: Date | null }[]
  >`
    select s.stream_id, s.stream_type, s.version,
           (select f.created_at from es_events f where f.stream_id = s.stream_id and f.stream_version = 1) as first_at,
           (select l.created_at from es_events l where l.stream_id = s.stream_id and l.stream_version = s.version) as last_at
    from es_stream_students ss join es_streams s on s.stream_id = ss.stream_id
    where ss.student_id = ${studentId}
      ${after === null ? sql`` : sql`and ss.stream_id > ${after}`}
      ${inScope(sql, options.scope)}
    order by ss.stream_id
    limit ${options.limit}`;
  return rows.map((r) => ({
    streamId: r.stream_id,
    category: r.stream_type,
    version: r.version,
    firstRecordedAt: r.first_at,
    lastRecordedAt: r.last_at,
  }));
}
