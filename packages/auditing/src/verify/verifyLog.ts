import { createHash } from 'node:crypto';
import type { Sql } from '@qiraa/db';
import { chainStep, contentHash, decodeCheckpoint, encodeCheckpoint } from '@qiraa/eventstore';
import { streamOrganization } from '../streamOrganization';

/** A break in the chain: an event whose hash does not match, or a version missing from its stream. */
export type Break =
  | { kind: 'altered'; eventId: string; streamId: string; version: number; position: string }
  | { kind: 'missing'; streamId: string; version: number }
  | { kind: 'checkpoint'; checkpointId: number; position: string; detail: 'digest' | 'absent' };

export interface VerifyOptions {
  /** Only the streams of this organization (no global digest: it covers every stream). */
  organizationId?: string;
  /** Recompute only the events after this position (`xid:global`); earlier hashes are taken as stored. */
  since?: string;
  /** Record a checkpoint when a whole, unfiltered run finds nothing (needs `at`). */
  record?: { at: Date };
  batchSize?: number;
}

export interface VerifyReport {
  ok: boolean;
  /** Events recomputed. */
  events: number;
  /** Every break found, in commit order; `breaks[0]` is the first broken event. */
  breaks: Break[];
  /** Recorded checkpoints this run met (their digests matched). */
  checkpointsMet: number;
  /** The checkpoint this run recorded, if any. */
  recorded: { position: string; events: number; digest: string } | null;
}

interface Row {
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
  hash: Buffer;
  prev_hash: Buffer | null;
  has_prev: boolean;
}

interface CheckpointRow {
  id: bigint;
  xid_text: string;
  global_position: bigint;
  events: bigint;
  digest: Buffer;
}

const MAX_BREAKS = 100;

/**
 * Recomputes the hash chain (migration 0044, docs/auditing.md "Tamper evidence") from the events as stored:
 * each event's hash from its content, version, recording time and the stored hash of the event before it
 * in its stream (a local check per event proves the whole chain), in commit order. Then the stream heads
 * (a stream whose last events were deleted) and, on a whole run, the running digest at each recorded
 * checkpoint (an event deleted, inserted or moved before it). Reads only committed events below the oldest
 * open transaction, as the log readers do, so a checkpoint never covers an event that commits later.
 */
export async function verifyLog(sql: Sql, options: VerifyOptions = {}): Promise<VerifyReport> {
  const whole = options.organizationId === undefined && options.since === undefined;
  const batch = options.batchSize ?? 2_000;
  const breaks: Break[] = [];
  const note = (b: Break) => {
    if (breaks.length < MAX_BREAKS) breaks.push(b);
  };
  const checkpoints = whole
    ? await sql<CheckpointRow[]>`
        select id, transaction_id::text as xid_text, global_position, events, digest
        from es_verify_checkpoints order by transaction_id, global_position`
    : [];
  let nextCheckpoint = 0;
  let checkpointsMet = 0;
  let digest = Buffer.alloc(0);
  let events = 0;
  let at = decodeCheckpoint(options.since ?? null);
  let last: { xid: string; gp: bigint } | null = null;
  const orgFilter = options.organizationId
    ? sql`and exists (select 1 from es_streams s where s.stream_id = e.stream_id
                      and ${streamOrganization(sql)} = ${options.organizationId})`
    : sql``;

  const passCheckpointsBefore = (xid: bigint, gp: bigint, inclusive: boolean) => {
    while (nextCheckpoint < checkpoints.length) {
      const c = checkpoints[nextCheckpoint]!;
      const cx = BigInt(c.xid_text);
      const before = cx < xid || (cx === xid && (inclusive ? c.global_position <= gp : c.global_position < gp));
      if (!before) return;
      const position = encodeCheckpoint({ transactionId: c.xid_text, globalPosition: c.global_position });
      const reached = last !== null && BigInt(last.xid) === cx && last.gp === c.global_position;
      if (!reached) note({ kind: 'checkpoint', checkpointId: Number(c.id), position, detail: 'absent' });
      else if (BigInt(events) !== c.events || !digest.equals(c.digest)) {
        note({ kind: 'checkpoint', checkpointId: Number(c.id), position, detail: 'digest' });
      } else checkpointsMet++;
      nextCheckpoint++;
    }
  };

  for (;;) {
    const rows = await sql<Row[]>`
      select e.global_position, e.transaction_id::text as xid_text, e.stream_id, e.stream_version,
             e.event_id::text as event_id, e.event_type, e.schema_version, e.data, e.metadata,
             (extract(epoch from e.created_at) * 1000000)::bigint as created_micros, e.hash,
             p.hash as prev_hash, p.stream_id is not null as has_prev
      from es_events e
      left join es_events p on p.stream_id = e.stream_id and p.stream_version = e.stream_version - 1
      where (e.transaction_id, e.global_position) > (${at.transactionId}::xid8, ${at.globalPosition})
        and e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ${orgFilter}
      order by e.transaction_id, e.global_position
      limit ${batch}`;
    for (const row of rows) {
      const xid = BigInt(row.xid_text);
      passCheckpointsBefore(xid, row.global_position, false);
      const version = row.stream_version;
      if (version > 1n && !row.has_prev) {
        note({ kind: 'missing', streamId: row.stream_id, version: Number(version - 1n) });
      }
      const content = contentHash(
        {
          eventId: row.event_id,
          streamId: row.stream_id,
          type: row.event_type,
          schemaVersion: row.schema_version,
          data: row.data,
          metadata: row.metadata,
        },
        true,
      );
      const expected = chainStep(version > 1n ? row.prev_hash : null, version, row.created_micros, content);
      if (!row.hash || !expected.equals(row.hash)) {
        note({
          kind: 'altered',
          eventId: row.event_id,
          streamId: row.stream_id,
          version: Number(version),
          position: encodeCheckpoint({ transactionId: row.xid_text, globalPosition: row.global_position }),
        });
      }
      if (whole)
        digest = createHash('sha256')
          .update(digest)
          .update(row.hash ?? Buffer.alloc(0))
          .digest();
      events++;
      last = { xid: row.xid_text, gp: row.global_position };
      passCheckpointsBefore(xid, row.global_position, true);
    }
    if (rows.length < batch) break;
    const tail = rows[rows.length - 1]!;
    at = { transactionId: tail.xid_text, globalPosition: tail.global_position };
  }
  // A checkpoint past the last event read: its event and everything after it are gone.
  if (whole) passCheckpointsBefore(BigInt(Number.MAX_SAFE_INTEGER) ** 2n, 0n, true);

  // Stream heads: a stream whose last versions are gone has fewer events than its recorded version.
  const heads = await sql<{ stream_id: string; version: bigint; present: bigint | null }[]>`
    select s.stream_id, s.version, max(e.stream_version) as present
    from es_streams s left join es_events e on e.stream_id = s.stream_id
    where true ${options.organizationId ? sql`and ${streamOrganization(sql)} = ${options.organizationId}` : sql``}
    group by s.stream_id, s.version
    having max(e.stream_version) is distinct from s.version
    order by s.stream_id`;
  for (const h of heads) {
    if ((h.present ?? 0n) < h.version) {
      note({ kind: 'missing', streamId: h.stream_id, version: Number((h.present ?? 0n) + 1n) });
    }
  }

  let recorded: VerifyReport['recorded'] = null;
  if (whole && breaks.length === 0 && options.record && last) {
    const lastSeen: { xid: string; gp: bigint } = last;
    const newest = checkpoints[checkpoints.length - 1];
    const moved = !newest || newest.xid_text !== lastSeen.xid || newest.global_position !== lastSeen.gp;
    if (moved) {
      await sql`
        insert into es_verify_checkpoints (transaction_id, global_position, events, digest, verified_at)
        values (${lastSeen.xid}::xid8, ${lastSeen.gp}, ${events}, ${digest}, ${options.record.at})
        on conflict do nothing`;
    }
    recorded = {
      position: encodeCheckpoint({ transactionId: lastSeen.xid, globalPosition: lastSeen.gp }),
      events,
      digest: digest.toString('hex'),
    };
  }
  return { ok: breaks.length === 0, events, breaks, checkpointsMet, recorded };
}

/** One line naming a break, as `qiraa events verify` prints it. */
export function describeBreak(b: Break): string {
  switch (b.kind) {
    case 'altered':
      return `event ${b.eventId} (stream ${b.streamId} version ${b.version}, position ${b.position}): hash does not match its content or the event before it`;
    case 'missing':
      return `stream ${b.streamId} version ${b.version}: event missing (deleted)`;
    case 'checkpoint':
      return b.detail === 'absent'
        ? `checkpoint ${b.checkpointId} at position ${b.position}: its event is gone`
        : `checkpoint ${b.checkpointId} at position ${b.position}: digest differs (an event before it was deleted, inserted or re-ordered)`;
  }
}
