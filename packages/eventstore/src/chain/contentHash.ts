import { createHash } from 'node:crypto';
import { jsonbText } from './jsonbText';

/** What the content hash covers: the columns an auditor reads, as stored (migration 0044). */
export interface HashedContent {
  eventId: string;
  streamId: string;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: unknown;
}

/** The value as it is stored: jsonb receives JSON.stringify's text (dropped undefined, toJSON applied). */
const asStored = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));

/** The text whose sha256 is the content hash: jsonb_build_array(event_id::text, stream_id, ...)::text. */
export function contentText(content: HashedContent, stored = false): string {
  const data = stored ? content.data : asStored(content.data);
  const metadata = stored ? content.metadata : asStored(content.metadata ?? {});
  return jsonbText([
    content.eventId.toLowerCase(),
    content.streamId,
    content.type,
    content.schemaVersion,
    data,
    metadata,
  ]);
}

/** sha256 of `contentText`: computed at the append (stored = false) and by verify (stored = true). */
export function contentHash(content: HashedContent, stored = false): Buffer {
  return createHash('sha256').update(contentText(content, stored), 'utf8').digest();
}

/** One link: sha256(previous hash (empty at version 1) || int8 version || int8 createdAt µs || content hash). */
export function chainStep(prev: Buffer | null, version: bigint, createdAtMicros: bigint, content: Buffer): Buffer {
  const numbers = Buffer.alloc(16);
  numbers.writeBigInt64BE(version, 0);
  numbers.writeBigInt64BE(createdAtMicros, 8);
  const hash = createHash('sha256');
  if (prev) hash.update(prev);
  return hash.update(numbers).update(content).digest();
}
