import { errorResponses } from '@qiraa/http-kit';
import type { ReadinessCheck } from '@qiraa/runtime';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

const Check = Type.Object({
  name: Type.String(),
  ok: Type.Boolean(),
  /** A check that passed but wants an operator (parked reaction events). */
  degraded: Type.Optional(Type.Boolean()),
  detail: Type.Optional(Type.String()),
});
const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('degraded'), Type.Literal('not_ready')]),
  checks: Type.Array(Check),
});

/** A check that has not answered by then counts as failed: a load balancer's probe must get an answer. */
export const READINESS_CHECK_TIMEOUT_MS = 800;

function withinBound<T>(check: () => Promise<true | string | T>): Promise<true | string | T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${READINESS_CHECK_TIMEOUT_MS} ms`), READINESS_CHECK_TIMEOUT_MS);
  });
  return Promise.race([check().catch((error: Error) => error.message || String(error)), late]).finally(() =>
    clearTimeout(timer),
  );
}

export function healthRoutes(app: FastifyInstance, readiness: readonly ReadinessCheck[]): void {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['ops'],
        summary: 'Liveness: the process is up',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['ops'],
        summary:
          'Readiness: database reachable and migrated (else 503 not_ready); 200 `degraded` while the queue is ' +
          'unreachable or reaction events are parked (docs/operations.md)',
        response: { 200: Readiness, 503: Readiness, ...errorResponses(500) },
      },
    },
    async (_request, reply) => {
      const results = await Promise.all(
        readiness.map(async ({ name, check, optional }) => {
          const result = await withinBound(check);
          if (result === true) return { required: !optional, check: { name, ok: true } };
          if (typeof result === 'string') return { required: !optional, check: { name, ok: false, detail: result } };
          return { required: !optional, check: { name, ok: true, degraded: true, detail: result.degraded } };
        }),
      );
      const checks = results.map((r) => r.check);
      // A failed optional check (the queue: writes work, projections catch up) or parked reaction events leave
      // the instance serving with 200 `degraded`: a load balancer must keep it; an operator must look.
      const status = results.some((r) => r.required && !r.check.ok)
        ? 'not_ready'
        : checks.some((c) => !c.ok || 'degraded' in c)
          ? 'degraded'
          : 'ready';
      return reply.code(status === 'not_ready' ? 503 : 200).send({ status, checks });
    },
  );
}
