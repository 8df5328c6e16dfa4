import type { AnySql } from '@qiraa/db';
import { randomEventId } from '../eventId';
import { type AppendResult, type ExpectedVersion, type NewEvent, type RecordedEvent, streamCategory } from '../types';
import { encodeCheckpoint } from './checkpoint';

// Array type oids (text[], int4[]): without them postgres.js can send a first-use array as a bare "a,b".
const TEXT = 1009;
const INT4 = 1007;

interface AppendRow {
  outcome: 'appended' | 'duplicate' | 'conflict';
  stream_version: bigint | null;
  actual_version: bigint | null;
  global_position: bigint;
  transaction_id: string;
  event_version: bigint;
  created_at: Date;
}

/**
 * One call of es_append (migration 0004): the stream row is the concurrency guard, so parallel writers
 * serialise on it and exactly one of several same-version appends wins. In a unit of work it joins the
 * caller's transaction; alone it is one autocommitted statement.
 */
export async function appendToStream(
  sql: AnySql,
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedVersion,
): Promise<AppendResult> {
  if (events.length === 0) throw new RangeError('append needs at least one event');
  const ids = events.map((e) => e.eventId ?? randomEventId());
  const mode = typeof expected === 'bigint' ? 'version' : expected;
  const rows = await sql<AppendRow[]>`
    select * from es_append(
      ${streamId}, ${streamCategory(streamId)}, ${mode}, ${typeof expected === 'bigint' ? expected : null},
      ${sql.array(ids, TEXT)}::uuid[],
      ${sql.array(
        events.map((e) => e.type),
        TEXT,
      )},
      ${sql.array(
        events.map((e) => e.schemaVersion ?? 1),
        INT4,
      )},
      ${sql.array(
        events.map((e) => JSON.stringify(e.data ?? null)),
        TEXT,
      )}::jsonb[],
      ${sql.array(
        events.map((e) => JSON.stringify(e.metadata ?? {})),
        TEXT,
      )}::jsonb[])`;
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
