import type { AnySql } from '@qiraa/db';

/**
 * The level stream's version, from its read model (every event of the stream lands in `trn_levels`): the
 * version a level command's loader hands `handleCommand`. Read before the rows the command decides on (first on
 * the connection), so a move committed in between makes the append conflict rather than pass on stale rows.
 */
export async function levelStreamVersion(sql: AnySql, studentId: number): Promise<bigint | 'no_stream'> {
  const [row] = await sql<{ v: string | null }[]>`
    select max(stream_version)::text as v from trn_levels where student_id = ${studentId}`;
  return row?.v ? BigInt(row.v) : 'no_stream';
}
