import type { Sql } from './connect';
import { describeDatabaseUrl, withoutCredentials } from './databaseUrl';
import type { DatabaseLocation } from './openDatabase';
import { SetupError } from './setupError';

/** What went wrong, from the driver's error code; the fix that goes with it. */
function diagnose(error: { code?: string; message?: string }): { problem: string; fix: string } {
  switch (error.code) {
    case 'ECONNREFUSED':
      return { problem: 'connection refused', fix: 'start PostgreSQL there or correct the host and port' };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { problem: 'host not found', fix: 'correct the host name' };
    case 'CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { problem: 'no answer', fix: 'check the host, the port and the network or firewall in between' };
    case '28P01':
    case '28000':
      return {
        problem: withoutCredentials(error.message ?? 'authentication failed'),
        fix: 'correct the user and password',
      };
    case '3D000':
      return { problem: withoutCredentials(error.message ?? 'no such database'), fix: 'create it or correct the name' };
    default:
      return {
        problem: withoutCredentials(error.message || error.code || 'connection failed'),
        fix: 'check that server',
      };
  }
}

/**
 * One round trip before anything else uses the pool, so an unreachable server is reported as the setting that
 * points at it (DATABASE_URL, or the embedded cluster under DATA_DIR) rather than as a driver stack trace.
 */
export async function probeDatabase(sql: Sql, location: DatabaseLocation): Promise<void> {
  try {
    await sql`select 1 as ok`;
  } catch (error) {
    const { problem, fix } = diagnose(error as { code?: string; message?: string });
    if (location.kind === 'external') {
      const where = describeDatabaseUrl(location.url) ?? 'the server';
      throw new SetupError(
        'DATABASE_URL',
        `DATABASE_URL: cannot use PostgreSQL at ${where}: ${problem}; ${fix} in DATABASE_URL, ` +
          'or unset it to use the embedded PostgreSQL',
      );
    }
    const cluster = location.embedded;
    throw new SetupError(
      'DATA_DIR',
      `DATA_DIR: the embedded PostgreSQL in ${cluster?.dataDir ?? 'DATA_DIR'} (port ${cluster?.port ?? '?'}) ` +
        `answered: ${problem}; stop whatever holds that cluster or set DATA_DIR to another directory`,
    );
  }
}
