import type { EventStore } from '@qiraa/eventstore';
import { decodeCursor, encodeCursor } from './cursor';
import { type EventItem, toEventItem } from './eventItem';
import { streamScope } from './streamOrganization';

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
 * The global log in commit order (transaction, then position), filtered (`EventStore.readLog`: only what no
 * open transaction can still precede). `next` is null once nothing visible is left.
 */
export async function logEvents(
  store: EventStore,
  filter: LogFilter,
): Promise<{ items: EventItem[]; next: string | null }> {
  const start = filter.cursor ? decodeCursor(filter.cursor, isPositionCursor).p : (filter.after ?? null);
  const events = await store.readLog({
    after: start,
    limit: filter.limit + 1,
    ...(filter.types ? { types: filter.types } : {}),
    ...(filter.category ? { category: filter.category } : {}),
    ...(filter.from ? { from: filter.from } : {}),
    ...(filter.to ? { to: filter.to } : {}),
    scope: streamScope(filter.organizationId),
  });
  const items = events.slice(0, filter.limit).map(toEventItem);
  return { items, next: events.length > filter.limit ? encodeCursor({ p: items[items.length - 1]!.position }) : null };
}
