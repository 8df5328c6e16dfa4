import { createHash } from 'node:crypto';
import { chainStep, contentHash, decodeCheckpoint, type EventStore, encodeCheckpoint } from '@qiraa/eventstore';
import { streamScope } from '../queries/streamOrganization';

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

const MAX_BREAKS = 100;

/**
 * Recomputes the hash chain (migration 0044, docs/auditing.md "Tamper evidence") from the events as stored:
 * each event's hash from its content, version, recording time and the stored hash of the event before it
 * in its stream (a local check per event proves the whole chain), in commit order. Then the stream heads
 * (a stream whose last events were deleted) and, on a whole run, the running digest at each recorded
 * checkpoint (an event deleted, inserted or moved before it). Reads only committed events below the oldest
 * open transaction, as the log readers do, so a checkpoint never covers an event that commits later.
 */
export async function verifyLog(store: EventStore, options: VerifyOptions = {}): Promise<VerifyReport> {
  const whole = options.organizationId === undefined && options.since === undefined;
  const batch = options.batchSize ?? 2_000;
  const breaks: Break[] = [];
  const note = (b: Break) => {
    if (breaks.length < MAX_BREAKS) breaks.push(b);
  };
  const checkpoints = whole
    ? (await store.verifyCheckpoints()).map((c) => ({ ...c, at: decodeCheckpoint(c.position) }))
    : [];
  let nextCheckpoint = 0;
  let checkpointsMet = 0;
  let digest = Buffer.alloc(0);
  let events = 0;
  let after = options.since ?? null;
  let last: { xid: string; gp: bigint } | null = null;
  const scope = streamScope(options.organizationId ?? null);

  const passCheckpointsBefore = (xid: bigint, gp: bigint, inclusive: boolean) => {
    while (nextCheckpoint < checkpoints.length) {
      const c = checkpoints[nextCheckpoint]!;
      const cx = BigInt(c.at.transactionId);
      const cgp = c.at.globalPosition;
      const before = cx < xid || (cx === xid && (inclusive ? cgp <= gp : cgp < gp));
      if (!before) return;
      const position = c.position;
      const reached = last !== null && BigInt(last.xid) === cx && last.gp === cgp;
      if (!reached) note({ kind: 'checkpoint', checkpointId: c.id, position, detail: 'absent' });
      else if (BigInt(events) !== c.events || !digest.equals(c.digest)) {
        note({ kind: 'checkpoint', checkpointId: c.id, position, detail: 'digest' });
      } else checkpointsMet++;
      nextCheckpoint++;
    }
  };

  for (;;) {
    const rows = await store.readChain({ after, limit: batch, scope });
    for (const row of rows) {
      const at = decodeCheckpoint(row.position);
      const xid = BigInt(at.transactionId);
      passCheckpointsBefore(xid, at.globalPosition, false);
      const version = row.streamVersion;
      if (version > 1n && !row.hasPrevious) {
        note({ kind: 'missing', streamId: row.streamId, version: Number(version - 1n) });
      }
      const content = contentHash(
        {
          eventId: row.eventId,
          streamId: row.streamId,
          type: row.type,
          schemaVersion: row.schemaVersion,
          data: row.data,
          metadata: row.metadata,
        },
        true,
      );
      const expected = chainStep(version > 1n ? row.previousHash : null, version, row.createdMicros, content);
      if (!row.hash || !expected.equals(row.hash)) {
        note({
          kind: 'altered',
          eventId: row.eventId,
          streamId: row.streamId,
          version: Number(version),
          position: row.position,
        });
      }
      if (whole)
        digest = createHash('sha256')
          .update(digest)
          .update(row.hash ?? Buffer.alloc(0))
          .digest();
      events++;
      last = { xid: at.transactionId, gp: at.globalPosition };
      passCheckpointsBefore(xid, at.globalPosition, true);
    }
    if (rows.length < batch) break;
    after = rows[rows.length - 1]!.position;
  }
  // A checkpoint past the last event read: its event and everything after it are gone.
  if (whole) passCheckpointsBefore(BigInt(Number.MAX_SAFE_INTEGER) ** 2n, 0n, true);

  // Stream heads: a stream whose last versions are gone has fewer events than its recorded version.
  const heads = await store.streamHeadGaps(scope);
  for (const h of heads) {
    if (h.present < h.version) {
      note({ kind: 'missing', streamId: h.streamId, version: Number(h.present + 1n) });
    }
  }

  let recorded: VerifyReport['recorded'] = null;
  if (whole && breaks.length === 0 && options.record && last) {
    const lastSeen: { xid: string; gp: bigint } = last;
    const newest = checkpoints[checkpoints.length - 1];
    const position = encodeCheckpoint({ transactionId: lastSeen.xid, globalPosition: lastSeen.gp });
    const moved = !newest || newest.position !== position;
    if (moved) {
      await store.recordVerifyCheckpoint({ position, events: BigInt(events), digest, verifiedAt: options.record.at });
    }
    recorded = {
      position,
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
