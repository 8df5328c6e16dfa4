import type { RecordedEvent } from '../types';
import { encodeCheckpoint } from './checkpoint';

export interface EventRow {
  global_position: bigint;
  xid_text: string;
  stream_id: string;
  stream_version: bigint;
  event_id: string;
  event_type: string;
  schema_version: number;
  data: unknown;
  metadata: Record<string, unknown>;
  created_at: Date;
}

/**
 * Column list shared by every read, so rows always map the same way. The xid's text form must not be
 * aliased `transaction_id`: ORDER BY would then sort by that text ('998' after '14986') and skip events.
 */
export const EVENT_COLUMNS =
  'global_position, transaction_id::text as xid_text, stream_id, stream_version, event_id::text as event_id, event_type, schema_version, data, metadata, created_at';

/** `EVENT_COLUMNS` for a query that names es_events `e` (joined with es_streams `s`). */
export const E_EVENT_COLUMNS =
  'e.global_position, e.transaction_id::text as xid_text, e.stream_id, e.stream_version, e.event_id::text as event_id, e.event_type, e.schema_version, e.data, e.metadata, e.created_at';

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    eventId: row.event_id,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.event_type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata,
    createdAt: row.created_at,
    position: encodeCheckpoint({ transactionId: row.xid_text, globalPosition: row.global_position }),
  };
}
