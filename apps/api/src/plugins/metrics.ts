import type { Projection } from '@qiraa/projections';
import { projectionStatus, type RunnerDeps } from '@qiraa/projections';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics at /metrics: request count and latency by route (the route pattern, never the raw
 * URL, so ids do not explode the label space) and each projection's lag, read at scrape time.
 */
export function installMetrics(app: FastifyInstance, runner: RunnerDeps, projections: readonly Projection[]): void {
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
  new Gauge({
    name: 'qiraa_projection_lag_events',
    help: 'Events of the handled types after the projection checkpoint',
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      for (const status of await projectionStatus(runner, projections)) {
        this.set({ projection: status.name }, status.lag);
      }
    },
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const body = await registry.metrics();
    return reply.type(registry.contentType).send(body);
  });
}
