import type { AnySql } from '@qiraa/db';
import type { FieldedEvent, FieldKind } from '../auditReads';

const CAST: Record<FieldKind, string> = { text: '', int: '::int', bigint: '::int8' };

/**
 * `EventStore.readStreamFields`: each field a plain column (`data->>key`, cast), so no JSON document is parsed
 * per row; the rows come in the primary key's order (stream_id, stream_version). Fewer columns per row is what
 * makes a replay's read fast: 5,000 rows of ten columns took about 40 % longer.
 */
export async function readStreamFields(
  sql: AnySql,
  streamIds: readonly string[],
  options: { types?: readonly string[]; fields: Readonly<Record<string, FieldKind>> },
): Promise<FieldedEvent[]> {
  if (streamIds.length === 0) return [];
  const keys = Object.keys(options.fields);
  const columns = keys.reduce(
    (list, key, i) => sql`${list}, (data->>${key})${sql.unsafe(CAST[options.fields[key]!])} as ${sql(`f${i}`)}`,
    sql``,
  );
  const rows = await sql<Record<string, unknown>[]>`
    select stream_id, event_type, created_at ${columns}
    from es_events
    where stream_id in ${sql([...streamIds])}
      ${options.types?.length ? sql`and event_type in ${sql([...options.types])}` : sql``}
    order by stream_id, stream_version`;
  return rows.map((r) => {
    const data: FieldedEvent['data'] = {};
    keys.forEach((key, i) => {
      data[key] = r[`f${i}`] as string | number | bigint | null;
    });
    return { streamId: String(r.stream_id), type: String(r.event_type), createdAt: r.created_at as Date, data };
  });
}
