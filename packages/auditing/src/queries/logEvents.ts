import type { EventStore } from '@qiraa/eventstore';
import { decodeCursor, encodeCursor } from './cursor';
import { type EventItem, toEventItem } from './eventItem';
import { streamScope } from './streamOrganization';

export interface LogFilter {
  /** The organization whose streams are read (`streamScope`); null, every stream. The cursor is bound to it. */
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

/** Where the next page starts (`p`) and the organization the pages are read for (`o`, null for every one). */
interface LogCursor {
  p: string;
  o: string | null;
}

/**
 * A cursor of this list, given for the same organization: one presented with another organization (or none
 * where it had one) is refused like a forged one, so a page sequence never widens to other organizations'
 * events, or narrows, when a client drops or changes the filter between pages. The other filters are read
 * from each request, as `after` would continue them.
 */
const cursorFor =
  (organizationId: string | null) =>
  (v: unknown): v is LogCursor => {
    if (typeof v !== 'object' || v === null) return false;
    const { p, o } = v as { p?: unknown; o?: unknown };
    return typeof p === 'string' && /^\d+:\d+$/.test(p) && o === organizationId;
  };

/**
 * The global log in commit order (transaction, then position), filtered (`EventStore.readLog`: only what no
 * open transaction can still precede). `next` is null once nothing visible is left.
 */
export async function logEvents(
  store: EventStore,
  filter: LogFilter,
): Promise<{ items: EventItem[]; next: string | null }> {
  const start = filter.cursor
    ? decodeCursor(filter.cursor, cursorFor(filter.organizationId)).p
    : (filter.after ?? null);
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
  if (events.length <= filter.limit) return { items, next: null };
  const next: LogCursor = { p: items[items.length - 1]!.position, o: filter.organizationId };
  return { items, next: encodeCursor(next) };
}
