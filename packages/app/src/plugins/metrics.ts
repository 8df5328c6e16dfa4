import { timingSafeEqual } from 'node:crypto';
import { onPoolWait } from '@qiraa/db';
import { ApiError } from '@qiraa/http-kit';
import type { Projection, Reaction } from '@qiraa/projections';
import { parkedCounts, projectionStatus, type RunnerDeps } from '@qiraa/projections';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

// Node and process metrics (prom-client's defaults) are the process's, not an app's: registered once per
// process, because each registration starts its own event-loop monitor and GC observer (tests build many apps).
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
function bearerMatches(request: FastifyRequest, token: string): boolean {
  const given = Buffer.from(request.headers.authorization ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Prometheus metrics at /metrics (docs/operations.md, "Metrics"): prom-client's Node and process defaults;
 * request count and latency by route (the route pattern, never the raw URL, so ids do not explode the label
 * space); each projection's lag in events and in seconds (the age of its oldest unprojected event); each
 * reaction's parked events; how long transactions waited for a pooled connection.
 *
 * Not open by default: without METRICS_TOKEN the route answers 404 as if it did not exist; with it, only a
 * scrape that sends `Authorization: Bearer <METRICS_TOKEN>` gets the metrics (401 otherwise). A token rather
 * than a second port on loopback: several API processes run on one host, each with its own /metrics, and a
 * fixed second port would collide.
 */
export function installMetrics(
  app: FastifyInstance,
  runner: RunnerDeps,
  projections: readonly Projection[],
  reactions: readonly Reaction[] = [],
  token?: string,
): void {
  const registry = new Registry();
  const requests = new Counter({
    name: 'qiraa_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'qiraa_http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const lagEvents = new Gauge({
    name: 'qiraa_projection_lag_events',
    help: 'Events of the handled types after the projection checkpoint',
    labelNames: ['projection'] as const,
    registers: [registry],
  });
  const lagSeconds = new Gauge({
    name: 'qiraa_projection_lag_seconds',
    help: 'Age in seconds of the oldest event of the handled types not yet projected (0: none waits)',
    labelNames: ['projection'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'qiraa_reactions_parked',
    help: 'Events a reaction parked after its tries and no retry has delivered yet (qiraa reactions retry)',
    labelNames: ['reaction'] as const,
    registers: [registry],
    async collect() {
      const parked = await parkedCounts(runner.sql);
      for (const reaction of reactions) this.set({ reaction: reaction.name }, parked.get(reaction.name) ?? 0);
    },
  });
  const poolWaits = new Histogram({
    name: 'qiraa_db_pool_wait_seconds',
    help: 'How long a transaction waited for a free pooled connection, by outcome (reserved, timed_out, failed)',
    labelNames: ['outcome'] as const,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 5],
    registers: [registry],
  });
  onPoolWait(runner.sql, ({ seconds, outcome }) => poolWaits.observe({ outcome }, seconds));

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!token) throw new ApiError(404, 'NOT_FOUND', `no route GET ${request.url.split('?')[0]}`);
    if (!bearerMatches(request, token)) {
      void reply.header('www-authenticate', 'Bearer realm="metrics"');
      // The access-token codes: a scraper without the header and one with a wrong token are told apart.
      if (!request.headers.authorization)
        throw new ApiError(401, 'TOKEN_MISSING', 'send Authorization: Bearer <METRICS_TOKEN>');
      throw new ApiError(401, 'TOKEN_INVALID', 'the bearer token is not METRICS_TOKEN');
    }
    // One status read per scrape serves both lag gauges (two indexed reads per projection).
    for (const status of await projectionStatus(runner, projections)) {
      lagEvents.set({ projection: status.name }, status.lag);
      lagSeconds.set({ projection: status.name }, status.lagSeconds);
    }
    const body = await Registry.merge([processMetrics(), registry]).metrics();
    return reply.type(registry.contentType).send(body);
  });
}
