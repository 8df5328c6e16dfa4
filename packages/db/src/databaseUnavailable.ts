/**
 * Driver codes (postgres.js and Node's sockets) that mean the database could not be reached or the connection
 * was lost: the request may be retried, nothing about it was wrong. `POOL_WAIT_TIMEOUT` is ours (`connect`).
 */
const CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'POOL_WAIT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is going away or not there yet: class 08 (connection exception), 57P01
 * admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or shutting down), 53300
 * too_many_connections.
 */
function unavailableSqlstate(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/** True when `error` (or one of its causes) says PostgreSQL is unreachable now, not that the request was wrong. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (CONNECTION_CODES.has(code)) return true;
    if (error.name === 'PostgresError' && unavailableSqlstate(code)) return true;
  }
  return isDatabaseUnavailable((error as { cause?: unknown }).cause, depth + 1);
}
