import type { EventStore } from '@qiraa/eventstore';
import { decodeCursor, encodeCursor } from './cursor';
import { streamScope } from './streamOrganization';

export interface StreamItem {
  streamId: string;
  category: string;
  version: number;
  firstRecordedAt: string;
  lastRecordedAt: string;
}

const isStreamCursor = (v: unknown): v is { s: string } =>
  typeof v === 'object' && v !== null && typeof (v as { s?: unknown }).s === 'string';

/**
 * Every stream about a student, from the index es_append keeps (`EventStore.studentStreams`), in stream id
 * order; the recording times are those of the stream's first and last events.
 */
export async function studentStreams(
  store: EventStore,
  input: { studentId: number; organizationId: string | null; limit: number; cursor?: string | undefined },
): Promise<{ items: StreamItem[]; next: string | null }> {
  const after = input.cursor ? decodeCursor(input.cursor, isStreamCursor).s : null;
  const streams = await store.studentStreams(input.studentId, {
    after,
    limit: input.limit + 1,
    scope: streamScope(input.organizationId),
  });
  const page = streams.slice(0, input.limit);
  return {
    items: page.map((s) => ({
      streamId: s.streamId,
      category: s.category,
      version: Number(s.version),
      firstRecordedAt: (s.firstRecordedAt ?? s.lastRecordedAt ?? new Date(0)).toISOString(),
      lastRecordedAt: (s.lastRecordedAt ?? s.firstRecordedAt ?? new Date(0)).toISOString(),
    })),
    next: streams.length > input.limit ? encodeCursor({ s: page[page.length - 1]!.streamId }) : null,
  };
}
