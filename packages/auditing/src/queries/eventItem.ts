import type { AnySql } from '@qiraa/db';
import { encodeCheckpoint } from '@qiraa/eventstore';

/** One event as the auditor routes answer it (the item shape). */
export interface EventItem {
  eventId: string;
  streamId: string;
  version: number;
  /** Position in the whole log (`xid:global`, commit order), usable as `after`. */
  position: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  recordedAt: string;
  /** Not in the HTTP answers (their schema drops it); the CLI's NDJSON prints it. */
  schemaVersion?: number;
}

export interface EventItemRow {
  global_position: bigint;
  xid_text: string;
  stream_id: string;
  stream_version: bigint;
  event_id: string;
  event_type: string;
  schema_version: number;
  data: unknown;
  metadata: Record<string, unknown> | null;
  created_at: Date;
}

/** The columns of `EventItemRow`, for a query that names `es_events` as `e`. */
export const eventItemColumns = (sql: AnySql) => sql`
  e.global_position, e.transaction_id::text as xid_text, e.stream_id, e.stream_version, e.event_id::text as event_id,
  e.event_type, e.schema_version, e.data, e.metadata, e.created_at`;

export const toEventItem = (row: EventItemRow): EventItem => ({
  eventId: row.event_id,
  streamId: row.stream_id,
  version: Number(row.stream_version),
  position: encodeCheckpoint({ transactionId: row.xid_text, globalPosition: row.global_position }),
  type: row.event_type,
  data: row.data,
  metadata: row.metadata ?? {},
  recordedAt: row.created_at.toISOString(),
  schemaVersion: row.schema_version,
});
