import type { AnySql, TransactionSql } from '@qiraa/db';
import { randomEventId } from '../eventId';
import { type AppendResult, type ExpectedVersion, type NewEvent, streamCategory } from '../types';
import { type EventRow, toRecordedEvent } from './eventRow';

const UNIQUE_VIOLATION = '23505';

/**
 * Appends in the given transaction. The stream row is the concurrency guard: each expected-version mode is
 * one statement whose row count says whether the expectation held, so parallel writers serialise on it.
 */
export async function appendToStream(
  tx: TransactionSql,
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedVersion,
): Promise<AppendResult> {
  if (events.length === 0) throw new RangeError('append needs at least one event');
  const ids = events.map((e) => e.eventId ?? randomEventId());
  const newVersion = await advanceStream(tx, streamId, BigInt(events.length), expected);
  if (newVersion === null) {
    const duplicate = await alreadyStored(tx, streamId, ids);
    if (duplicate !== null) return duplicate;
    return { kind: 'conflict', expected, actual: await currentVersion(tx, streamId) };
  }
  const first = newVersion - BigInt(events.length) + 1n;
  const rows = await tx<EventRow[]>`
    insert into es_events (stream_id, stream_version, event_id, event_type, schema_version, data, metadata)
    select ${streamId}, v, id::uuid, t, s, d, m
    from unnest(
      ${tx.array(events.map((_, i) => String(first + BigInt(i))))}::bigint[],
      ${tx.array(ids)}::text[],
      ${tx.array(events.map((e) => e.type))}::text[],
      ${tx.array(events.map((e) => e.schemaVersion ?? 1))}::int[],
      ${tx.array(events.map((e) => JSON.stringify(e.data ?? null)))}::jsonb[],
      ${tx.array(events.map((e) => JSON.stringify(e.metadata ?? {})))}::jsonb[]
    ) as x(v, id, t, s, d, m)
    returning global_position, transaction_id::text as transaction_id, stream_id, stream_version,
              event_id::text as event_id, event_type, schema_version, data, metadata, created_at`;
  return { kind: 'appended', streamVersion: newVersion, events: rows.map(toRecordedEvent) };
}

async function advanceStream(
  tx: TransactionSql,
  streamId: string,
  count: bigint,
  expected: ExpectedVersion,
): Promise<bigint | null> {
  const type = streamCategory(streamId);
  let rows: { version: bigint }[];
  if (expected === 'no_stream' || expected === 0n) {
    rows = await tx`
      insert into es_streams (stream_id, stream_type, version) values (${streamId}, ${type}, ${count})
      on conflict (stream_id) do nothing returning version`;
  } else if (expected === 'any') {
    rows = await tx`
      insert into es_streams (stream_id, stream_type, version) values (${streamId}, ${type}, ${count})
      on conflict (stream_id) do update set version = es_streams.version + excluded.version, updated_at = now()
      returning version`;
  } else if (expected === 'stream_exists') {
    rows = await tx`
      update es_streams set version = version + ${count}, updated_at = now()
      where stream_id = ${streamId} returning version`;
  } else {
    rows = await tx`
      update es_streams set version = version + ${count}, updated_at = now()
      where stream_id = ${streamId} and version = ${expected} returning version`;
  }
  return rows[0]?.version ?? null;
}

async function currentVersion(sql: AnySql, streamId: string): Promise<bigint | null> {
  const [row] = await sql<{ version: bigint }[]>`select version from es_streams where stream_id = ${streamId}`;
  return row?.version ?? null;
}

/** A retry of an append that already landed: every id stored, all in this stream. */
export async function alreadyStored(
  sql: AnySql,
  streamId: string,
  ids: readonly string[],
): Promise<AppendResult | null> {
  const rows = await sql<{ stream_id: string }[]>`
    select stream_id from es_events where event_id = any(${sql.array(ids as string[])}::uuid[])`;
  if (rows.length !== ids.length || rows.some((r) => r.stream_id !== streamId)) return null;
  return { kind: 'duplicate', streamVersion: (await currentVersion(sql, streamId)) ?? 0n };
}

export function isDuplicateEventId(error: unknown): boolean {
  const e = error as { code?: string; constraint_name?: string };
  return e?.code === UNIQUE_VIOLATION && e.constraint_name === 'es_events_event_id_key';
}
