import type { AnySql } from '@qiraa/db';
import type { ReadStreamOptions, RecordedEvent } from '../types';
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
