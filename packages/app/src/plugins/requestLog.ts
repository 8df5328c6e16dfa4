import type { FastifyInstance } from 'fastify';

/** One structured line per request, written when the response is done (request.log already binds reqId). */
export function installRequestLog(app: FastifyInstance): void {
  // At debug level the start too, so a request that never completes can be found by its reqId.
  app.addHook('onRequest', async (request) => {
    request.log.debug({ method: request.method, url: request.url }, 'request started');
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    );
  });
}
