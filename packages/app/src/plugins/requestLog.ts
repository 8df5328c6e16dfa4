import type { FastifyInstance } from 'fastify';

/** One structured line per request, written when the response is done (request.log already binds reqId). */
export function installRequestLog(app: FastifyInstance): void {
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
