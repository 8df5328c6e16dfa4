import type { FastifyInstance } from 'fastify';

/** How long a stop waits for requests in flight to finish. */
export const DRAIN_MS = 10_000;

/**
 * Stops accepting connections and lets requests in flight finish (fastify answers 503 to new requests on kept
 * connections meanwhile); past `ms` the remaining connections are cut so the stop stays bounded. A request cut
 * then was not acknowledged: its transaction either committed or rolled back, never half.
 */
export async function drainWithin(app: FastifyInstance, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  const outcome = await Promise.race([app.close().then(() => 'drained' as const), late]);
  clearTimeout(timer);
  if (outcome === 'late') {
    app.log.warn({ drainMs: ms }, 'requests still in flight after the drain; closing their connections');
    app.server.closeAllConnections();
  }
}
