import type { AppendResult, ExpectedVersion, NewEvent, RecordedEvent } from '../types';
import { encodeCheckpoint } from './checkpoint';

/** One row es_append (migration 0004) returns per event. */
export interface AppendRow {
  outcome: 'appended' | 'duplicate' | 'conflict';
  stream_version: bigint | null;
  actual_version: bigint | null;
  global_position: bigint;
  transaction_id: string;
  event_version: bigint;
  created_at: Date;
}

/** The outcome of one stream's es_append call, from its rows (one per event, in event order). */
export function appendResultOf(
  streamId: string,
  events: readonly NewEvent[],
  ids: readonly string[],
  rows: readonly AppendRow[],
  expected: ExpectedVersion,
): AppendResult {
  const first = rows[0]!;
  if (first.outcome === 'conflict') return { kind: 'conflict', expected, actual: first.actual_version };
  if (first.outcome === 'duplicate') return { kind: 'duplicate', streamVersion: first.stream_version ?? 0n };
  const recorded: RecordedEvent[] = rows.map((row, i) => ({
    eventId: ids[i]!,
    streamId,
    streamVersion: row.event_version,
    type: events[i]!.type,
    schemaVersion: events[i]!.schemaVersion ?? 1,
    data: events[i]!.data ?? null,
    metadata: events[i]!.metadata ?? {},
    createdAt: row.created_at,
    position: encodeCheckpoint({ transactionId: row.transaction_id, globalPosition: row.global_position }),
  }));
  return { kind: 'appended', streamVersion: first.stream_version!, events: recorded };
}
