import { createServer } from 'node:net';
import { SetupError } from '@qiraa/db';
import type { FastifyInstance } from 'fastify';

function explain(error: NodeJS.ErrnoException, host: string, port: number): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new SetupError(
        'PORT',
        `PORT ${port} is already in use on ${host}; stop the process that holds it or set PORT to a free port`,
      );
    case 'EACCES':
      return new SetupError(
        'PORT',
        `PORT ${port} on ${host} needs privileges this user lacks; set PORT above 1023 (a proxy can serve port 80)`,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new SetupError(
        'HOST',
        `HOST ${host} is not an address of this machine; set HOST (0.0.0.0: every address)`,
      );
    default:
      return error;
  }
}

/**
 * Fails fast when PORT is taken, before the database is opened and migrated for nothing. A second process may
 * still take the port in between, so `listen` below explains the same errors.
 */
export function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => reject(explain(error, host, port)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

export async function listen(app: FastifyInstance, host: string, port: number): Promise<void> {
  try {
    await app.listen({ host, port });
  } catch (error) {
    throw explain(error as NodeJS.ErrnoException, host, port);
  }
}
