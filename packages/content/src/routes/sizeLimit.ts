import { Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ApiError } from '@qiraa/http-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONTENT_KINDS, type ContentKind } from '../queries/catalogTypes';

const MB = 1024 * 1024;

/** Import size after decoding (spec: Limits). 1 MB is 1,048,576 bytes. */
export const IMPORT_SIZE_LIMITS: Readonly<Record<ContentKind, number>> = {
  item: 10 * MB,
  content_bundle: 10 * MB,
  screening_form: 2 * MB,
  scaffold_prompt: MB,
  word_list: MB,
};
/** The largest limit: the stream is cut here, before the kind is known (it is inside the body). */
export const IMPORT_MAX_BYTES = 10 * MB;

export const payloadTooLarge = (limit: number, kind?: ContentKind) =>
  new ApiError(
    413,
    'PAYLOAD_TOO_LARGE',
    kind
      ? `a ${kind} import holds at most ${limit} bytes after decoding`
      : `an import holds at most ${limit} bytes after decoding`,
  );

const decodedBytes = new WeakMap<FastifyRequest, number>();

/** Decoded body bytes the preParsing hook counted (the body's JSON size when no hook ran). */
export const decodedBytesOf = (request: FastifyRequest): number =>
  decodedBytes.get(request) ?? Buffer.byteLength(JSON.stringify(request.body ?? null));

type BodyStream = NodeJS.ReadableStream & { receivedEncodedLength?: number };

/**
 * preParsing hook: gunzips a `Content-Encoding: gzip` body and counts decoded bytes as they stream, cutting
 * the body at IMPORT_MAX_BYTES with 413 before more is read or anything is parsed (a small gzip body can
 * inflate to gigabytes). fastify compares `receivedEncodedLength` with Content-Length, so the compressed
 * count is kept on the returned stream.
 */
export async function countDecodedBytes(request: FastifyRequest, _reply: FastifyReply, payload: BodyStream) {
  const encoding = String(request.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  if (encoding !== 'gzip' && encoding !== 'identity') {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'content encoding not supported; send gzip or none');
  }
  if (encoding === 'identity' && Number(request.headers['content-length']) > IMPORT_MAX_BYTES) {
    throw payloadTooLarge(IMPORT_MAX_BYTES);
  }
  let decoded = 0;
  const counter: Transform & { receivedEncodedLength?: number } = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      decoded += chunk.length;
      decodedBytes.set(request, decoded);
      if (decoded > IMPORT_MAX_BYTES) done(payloadTooLarge(IMPORT_MAX_BYTES));
      else done(null, chunk);
    },
  });
  // fastify's body reader listens for the cut; this listener only keeps an early cut (the reader gave up
  // already) from becoming an uncaught exception.
  counter.on('error', () => {});
  payload.on('error', (error) => counter.destroy(error));
  if (encoding === 'identity') return payload.pipe(counter);

  let encoded = 0;
  const encodedCounter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      encoded += chunk.length;
      counter.receivedEncodedLength = encoded;
      done(null, chunk);
    },
  });
  const gunzip = createGunzip();
  gunzip.on('error', () =>
    counter.destroy(new ApiError(400, 'MALFORMED_REQUEST', 'body is not valid gzip (Content-Encoding: gzip)')),
  );
  // A cut body stops inflating at once.
  counter.once('error', () => gunzip.destroy());
  return payload.pipe(encodedCounter).pipe(gunzip).pipe(counter);
}

/** preValidation hook: the kind's own limit, on the decoded size, before validation or any write. */
export async function enforceKindSizeLimit(request: FastifyRequest) {
  const given = (request.body as { contentKind?: unknown } | null)?.contentKind ?? 'item';
  const kind = CONTENT_KINDS.find((k) => k === given);
  const limit = kind ? IMPORT_SIZE_LIMITS[kind] : IMPORT_MAX_BYTES;
  if (decodedBytesOf(request) > limit) throw payloadTooLarge(limit, kind);
}
