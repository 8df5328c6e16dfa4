import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ApiErrorBody } from './apiError';

const answers: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'HEADERS_TOO_LARGE', 'request headers are larger than the server accepts'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT', 'the request was not received in time'],
};
const MALFORMED: [number, string, string] = [400, 'MALFORMED_REQUEST', 'request is not well-formed HTTP'];

/** The raw HTTP response Node's parser could not let a route give: the ApiError envelope, then the socket closes. */
export function clientErrorResponse(error: { code?: string }): string {
  const [status, code, message] = (error.code ? answers[error.code] : undefined) ?? MALFORMED;
  const body = JSON.stringify({ code, message } satisfies ApiErrorBody);
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * fastify `clientErrorHandler`: a request Node refuses before fastify sees it (headers over the limit, malformed
 * HTTP) still answers the envelope, as Node's own handler answers its bare status line.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.debug({ err: error }, 'client error');
  // A keep-alive socket may be mid-way through an earlier response: a second status line would corrupt it.
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (socket.writable && !current?.headersSent) socket.write(clientErrorResponse(error));
  socket.destroy(error);
}
