import type { AnySql } from '@qiraa/db';
import type { ChainLink, StreamHeadGap, StreamScope, VerifyCheckpoint } from '../auditReads';
import type { Checkpoint } from '../types';
import { decodeCheckpoint, encodeCheckpoint } from './checkpoint';
import { inScope } from './streamScope';

interface LinkRow {
  global_position: bigint;
  xid_text: string;
  stream_id: string;
  stream_version: bigint;
  event_id: string;
  event_type: string;
  schema_version: number;
  data: unknown;
  metadata: unknown;
  created_micros: bigint;
  hash: Buffer | null;
  prev_hash: Buffer | null;
  has_prev: boolean;
}

/** `EventStore.readChain`: each event with the stored hash of the one before it in its stream (migration 0044). */
export async function readChain(
  sql: AnySql,
  query: { after?: Checkpoint | null; limit: number; scope?: StreamScope | null },
): Promise<ChainLink[]> {
  const at = decodeCheckpoint(query.after ?? null);
  const rows = await sql<LinkRow[]>`
    select e.global_position, e.transaction_id::text as xid_text, e.stream_id, e.stream_version,
           e.event_id::text as event_id, e.event_type, e.schema_version, e.data, e.metadata,
           (extract(epoch from e.created_at) * 1000000)::bigint as created_micros, e.hash,
           p.hash as prev_hash, p.stream_id is not null as has_prev
    from es_events e
    left join es_events p on p.stream_id = e.stream_id and p.stream_version = e.stream_version - 1
    where (e.transaction_id, e.global_position) > (${at.transactionId}::xid8, ${at.globalPosition})
      and e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
      ${query.scope ? sql`and exists (select 1 from es_streams s where s.stream_id = e.stream_id ${inScope(sql, query.scope)})` : sql``}
    order by e.transaction_id, e.global_position
    limit ${query.limit}`;
  return rows.map((r) => ({
    eventId: r.event_id,
    streamId: r.stream_id,
    streamVersion: r.stream_version,
    type: r.event_type,
    schemaVersion: r.schema_version,
    data: r.data,
    metadata: r.metadata,
    createdMicros: r.created_micros,
    position: encodeCheckpoint({ transactionId: r.xid_text, globalPosition: r.global_position }),
    hash: r.hash,
    previousHash: r.prev_hash,
    hasPrevious: r.has_prev,
  }));
}

/** `EventStore.streamHeadGaps`: a stream whose last versions are gone has fewer events than its recorded version. */
export async function streamHeadGaps(sql: AnySql, scope?: StreamScope | null): Promise<StreamHeadGap[]> {
  const rows = await sql<{ stream_id: string; version: bigint; present: bigint | null }[]>`
    select s.stream_id, s.version, max(e.stream_version) as present
    from es_streams s left join es_events e on e.stream_id = s.stream_id
    where true ${inScope(sql, scope)}
    group by s.stream_id, s.version
    having max(e.stream_version) is distinct from s.version
    order by s.stream_id`;
  return rows.map((r) => ({ streamId: r.stream_id, version: r.version, present: r.present ?? 0n }));
}

/** `EventStore.verifyCheckpoints`. */
export async function verifyCheckpoints(sql: AnySql): Promise<VerifyCheckpoint[]> {
  const rows = await sql<
    { id: bigint; xid_text: string; global_position: bigint; events: bigint; digest: Buffer; verified_at: Date }[]
  >`
    select id, transaction_id::text as xid_text, global_position, events, digest, verified_at
    from es_verify_checkpoints order by transaction_id, global_position`;
  return rows.map((r) => ({
    id: Number(r.id),
    position: encodeCheckpoint({ transactionId: r.xid_text, globalPosition: r.global_position }),
    events: r.events,
    digest: r.digest,
    verifiedAt: r.verified_at,
  }));
}

/** `EventStore.recordVerifyCheckpoint`. */
export async function recordVerifyCheckpoint(sql: AnySql, checkpoint: Omit<VerifyCheckpoint, 'id'>): Promise<void> {
  const at = decodeCheckpoint(checkpoint.position);
  await sql`
    insert into es_verify_checkpoints (transaction_id, global_position, events, digest, verified_at)
    values (${at.transactionId}::xid8, ${at.globalPosition}, ${checkpoint.events}, ${checkpoint.digest},
            ${checkpoint.verifiedAt})
    on conflict do nothing`;
}
