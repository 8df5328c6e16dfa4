import type { AnySql } from '@qiraa/db';
import { encodeCheckpoint } from '@qiraa/eventstore';

/** The newest checkpoint a whole verify run recorded, or null. */
export async function lastCheckpoint(sql: AnySql) {
  const [row] = await sql<
    { xid_text: string; global_position: bigint; events: bigint; digest: Buffer; verified_at: Date }[]
  >`
    select transaction_id::text as xid_text, global_position, events, digest, verified_at
    from es_verify_checkpoints order by transaction_id desc, global_position desc limit 1`;
  if (!row) return null;
  return {
    position: encodeCheckpoint({ transactionId: row.xid_text, globalPosition: row.global_position }),
    events: Number(row.events),
    digest: row.digest.toString('hex'),
    verifiedAt: row.verified_at.toISOString(),
  };
}
