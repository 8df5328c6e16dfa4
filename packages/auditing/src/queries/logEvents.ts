import type { AnySql } from '@qiraa/db';
import { decodeCheckpoint } from '@qiraa/eventstore';
import { decodeCursor, encodeCursor } from '../cursor';
import { inOrganization } from '../streamOrganization';
import { type EventItem, type EventItemRow, eventItemColumns, toEventItem } from './eventItem';

export interface LogFilter {
  organizationId: string | null;
  /** Exclusive start, a position as items carry it (`xid:global`). */
  after?: string | undefined;
  types?: readonly string[] | undefined;
  category?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  limit: number;
  cursor?: string | undefined;
}

const isPositionCursor = (v: unknown): v is { p: string } =>
  typeof v === 'object' && v !== null && /^\d+:\d+$/.test(String((v as { p?: unknown }).p));

/**
 * The global log in commit order (transaction, then position), filtered. Only events of transactions below
 * the oldest open one are read, as every log reader does: an event that took a lower position but commits
 * later is never skipped by a cursor. `next` is null once nothing visible is left.
 */
export async function logEvents(sql: AnySql, filter: LogFilter): Promise<{ items: EventItem[]; next: string | null }> {
  const start = filter.cursor ? decodeCursor(filter.cursor, isPositionCursor).p : (filter.after ?? null);
  const at = decodeCheckpoint(start);
  const rows = await sql<EventItemRow[]>`
    select ${eventItemColumns(sql)}
    from es_events e join es_streams s on s.stream_id = e.stream_id
    where (e.transaction_id, e.global_position) > (${at.transactionId}::xid8, ${at.globalPosition})
      and e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
      ${filter.types?.length ? sql`and e.event_type = any(${sql.array(filter.types as string[])}::text[])` : sql``}
      ${filter.category ? sql`and s.stream_type = ${filter.category}` : sql``}
      ${filter.from ? sql`and e.created_at >= ${filter.from}` : sql``}
      ${filter.to ? sql`and e.created_at < ${filter.to}` : sql``}
      ${inOrganization(sql, filter.organizationId)}
    order by e.transaction_id, e.global_position
    limit ${filter.limit + 1}`;
  const page = rows.slice(0, filter.limit);
  const items = page.map(toEventItem);
  return { items, next: rows.length > filter.limit ? encodeCursor({ p: items[items.length - 1]!.position }) : null };
}
