import type { AnySql } from '@qiraa/db';
import { contentHash } from '../chain/contentHash';
import { randomEventId } from '../eventId';
import { type AppendResult, type StreamAppend, streamCategory } from '../types';
import { type AppendRow, appendResultOf } from './appendResult';

type Row = AppendRow & { ord: bigint };

/**
 * Several streams (expected version `any` each) in ONE statement: es_append (migrations 0004, 0044) is called
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
    hashes: a.events.map((e, j) =>
      contentHash({
        eventId: ids[i]![j]!,
        streamId: a.streamId,
        type: e.type,
        schemaVersion: e.schemaVersion ?? 1,
        data: e.data,
        metadata: e.metadata,
      }).toString('hex'),
    ),
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
      array(select e from jsonb_array_elements(x.a->'metadata') with ordinality t(e, n) order by n),
      array(select decode(e, 'hex') from jsonb_array_elements_text(x.a->'hashes') with ordinality t(e, n) order by n)
    ) r`;
  const byAppend = appends.map((): Row[] => []);
  for (const row of rows) byAppend[Number(row.ord) - 1]!.push(row);
  return appends.map((append, i) => appendResultOf(append.streamId, append.events, ids[i]!, byAppend[i]!, 'any'));
}
