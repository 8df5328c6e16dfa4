import type { EventStore } from '@qiraa/eventstore';
import { notFound } from '@qiraa/http-kit';
import { decodeCursor, encodeCursor } from './cursor';
import { type EventItem, toEventItem } from './eventItem';
import { streamScope } from './streamOrganization';

const isVersionCursor = (v: unknown): v is { v: number } =>
  typeof v === 'object' && v !== null && Number.isSafeInteger((v as { v?: unknown }).v);

/** 404 unless the stream exists and belongs to the organization (any stream for the super scope). */
export async function streamInScope(store: EventStore, streamId: string, organizationId: string | null): Promise<void> {
  if (!(await store.streamExists(streamId, streamScope(organizationId)))) throw notFound('stream');
}

/** One stream in version order from `fromVersion` (or the cursor). */
export async function streamEvents(
  store: EventStore,
  input: { streamId: string; fromVersion: number; limit: number; cursor?: string | undefined },
): Promise<{ items: EventItem[]; next: string | null }> {
  const from = input.cursor ? decodeCursor(input.cursor, isVersionCursor).v : input.fromVersion;
  const events = await store.readStream(input.streamId, { from: BigInt(from), limit: input.limit + 1 });
  const page = events.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toEventItem),
    next: events.length > input.limit && last ? encodeCursor({ v: Number(last.streamVersion) + 1 }) : null,
  };
}
