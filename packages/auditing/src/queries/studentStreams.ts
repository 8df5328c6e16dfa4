import type { AnySql } from '@qiraa/db';
import { decodeCursor, encodeCursor } from '../cursor';
import { inOrganization } from '../streamOrganization';

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
 * Every stream about a student, from the index es_append keeps (es_stream_students, migration 0044), in
 * stream id order; the recording times are those of the stream's first and last events.
 */
export async function studentStreams(
  sql: AnySql,
  input: { studentId: number; organizationId: string | null; limit: number; cursor?: string | undefined },
): Promise<{ items: StreamItem[]; next: string | null }> {
  const after = input.cursor ? decodeCursor(input.cursor, isStreamCursor).s : null;
  const rows = await sql<
    { stream_id: string; stream_type: string; version: bigint; first_at: Date | null; last_at: Date | null }[]
  >`
    select s.stream_id, s.stream_type, s.version,
           (select f.created_at from es_events f where f.stream_id = s.stream_id and f.stream_version = 1) as first_at,
           (select l.created_at from es_events l where l.stream_id = s.stream_id and l.stream_version = s.version) as last_at
    from es_stream_students ss join es_streams s on s.stream_id = ss.stream_id
    where ss.student_id = ${input.studentId}
      ${after === null ? sql`` : sql`and ss.stream_id > ${after}`}
      ${inOrganization(sql, input.organizationId)}
    order by ss.stream_id
    limit ${input.limit + 1}`;
  const page = rows.slice(0, input.limit);
  return {
    items: page.map((r) => ({
      streamId: r.stream_id,
      category: r.stream_type,
      version: Number(r.version),
      firstRecordedAt: (r.first_at ?? r.last_at ?? new Date(0)).toISOString(),
      lastRecordedAt: (r.last_at ?? r.first_at ?? new Date(0)).toISOString(),
    })),
    next: rows.length > input.limit ? encodeCursor({ s: page[page.length - 1]!.stream_id }) : null,
  };
}
