import type { AnySql } from '@qiraa/db';
import { randomEventId } from '../eventId';
import { type AppendResult, type RecordedEvent, type StreamAppend, streamCategory } from '../types';
import { encodeCheckpoint } from './checkpoint';

interface Row {
  ord: bigint;
  outcome: 'appended' | 'duplicate' | 'conflict';
  stream_version: bigint | null;
  actual_version: bigint | null;
  global_position: bigint;
  transaction_id: string;
  event_version: bigint;
  created_at: Date;
}

/**
 * Several streams (expected version `any` each) in ONE statement: es_append (migration 0004) is called
 * once per stream, in order, from a lateral join over a JSON document of the appends. For commands that
 * write many streams at once (a batch of mastery events writes four per student).
 */
export async function appendMany(sql: AnySql, appends: readonly StreamAppend[]): Promise<AppendResult[]> {
  if (appends.length === 0) return [];
  const ids = appends.map((a) => {
    if (a.events.length === 0) throw new RangeError(`append to ${a.streamId} needs at least one event`);
    return a.events.map((e) => e.eventId ?? randomEventId());
  });
  const doc = appends.map((a, i) => ({
    stream: a.streamId,
    category: streamCategory(a.streamId),
    ids: ids[i],
    types: a.events.map((e) => e.type),
    schemaVersions: a.events.map((e) => e.schemaVersion ?? 1),
    data: a.events.map((e) => e.data ?? null),
    metadata: a.events.map((e) => e.metadata ?? {}),
  }));
  const rows = await sql<Row[]>`
    select x.ord, r.*
    from jsonb_array_elements(${sql.json(doc as never)}::jsonb) with ordinality as x(a, ord)
    cross join lateral es_append(
      x.a->>'stream', x.a->>'category', 'any', null,
      array(select e::uuid from jsonb_array_elements_text(x.a->'ids') with ordinality t(e, n) order by n),
      array(select e from jsonb_array_elements_text(x.a->'types') with ordinality t(e, n) order by n),
      array(select e::int from jsonb_array_elements_text(x.a->'schemaVersions') with ordinality t(e, n) order by n),
      array(select e from jsonb_array_elements(x.a->'data') with ordinality t(e, n) order by n),
      array(select e from jsonb_array_elements(x.a->'metadata') with ordinality t(e, n) order by n)
    ) r`;
  const byAppend = appends.map((): Row[] => []);
  for (const row of rows) byAppend[Number(row.ord) - 1]!.push(row);
  return appends.map((append, i): AppendResult => {
    const own = byAppend[i]!;
    const first = own[0]!;
    if (first.outcome === 'conflict') return { kind: 'conflict', expected: 'any', actual: first.actual_version };
    if (first.outcome === 'duplicate') return { kind: 'duplicate', streamVersion: first.stream_version ?? 0n };
    const events: RecordedEvent[] = own.map((row, k) => ({
      eventId: ids[i]![k]!,
      streamId: append.streamId,
      streamVersion: row.event_version,
      type: append.events[k]!.type,
      schemaVersion: append.events[k]!.schemaVersion ?? 1,
      data: append.events[k]!.data ?? null,
      metadata: append.events[k]!.metadata ?? {},
      createdAt: row.created_at,
      position: encodeCheckpoint({ transactionId: row.transaction_id, globalPosition: row.global_position }),
    }));
    return { kind: 'appended', streamVersion: first.stream_version!, events };
  });
}
