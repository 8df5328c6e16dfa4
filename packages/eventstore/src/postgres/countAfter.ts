import type { AnySql } from '@qiraa/db';
import type { Checkpoint } from '../types';
import { decodeCheckpoint } from './checkpoint';

export async function countAfter(sql: AnySql, after: Checkpoint | null, types?: readonly string[]): Promise<number> {
  const from = decodeCheckpoint(after);
  const [row] = await sql<{ n: bigint }[]>`
    select count(*) as n from es_events
    where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
      and (transaction_id, global_position) > (${from.transactionId}::xid8, ${from.globalPosition})
      ${types ? sql`and event_type = any(${sql.array([...types])}::text[])` : sql``}`;
  return Number(row?.n ?? 0n);
}
