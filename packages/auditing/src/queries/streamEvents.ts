import type { AnySql } from '@qiraa/db';
import { notFound } from '@qiraa/http-kit';
import { decodeCursor, encodeCursor } from '../cursor';
import { inOrganization } from '../streamOrganization';
import { type EventItem, type EventItemRow, eventItemColumns, toEventItem } from './eventItem';

const isVersionCursor = (v: unknown): v is { v: number } =>
  typeof v === 'object' && v !== null && Number.isSafeInteger((v as { v?: unknown }).v);

/** 404 unless the stream exists and belongs to the organization (any stream for the super scope). */
export async function streamInScope(sql: AnySql, streamId: string, organizationId: string | null): Promise<void> {
  const [row] = await sql`
    select 1 as ok from es_streams s where s.stream_id = ${streamId} ${inOrganization(sql, organizationId)}`;
  if (!row) throw notFound('stream');
}

/** One stream in version order from `fromVersion` (or the cursor). */
export async function streamEvents(
  sql: AnySql,
  input: { streamId: string; fromVersion: number; limit: number; cursor?: string | undefined },
): Promise<{ items: EventItem[]; next: string | null }> {
  const from = input.cursor ? decodeCursor(input.cursor, isVersionCursor).v : input.fromVersion;
  const rows = await sql<EventItemRow[]>`
    select ${eventItemColumns(sql)} from es_events e
    where e.stream_id = ${input.streamId} and e.stream_version >= ${from}
    order by e.stream_version limit ${input.limit + 1}`;
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toEventItem),
    next: rows.length > input.limit && last ? encodeCursor({ v: Number(last.stream_version) + 1 }) : null,
  };
}
