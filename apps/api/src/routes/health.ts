import { errorResponses } from '@qiraa/http-kit';
import type { ReadinessCheck } from '@qiraa/runtime';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

const Check = Type.Object({ name: Type.String(), ok: Type.Boolean(), detail: Type.Optional(Type.String()) });
const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  checks: Type.Array(Check),
});

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
        summary: 'Readiness: database reachable, migrations applied, queue reachable when configured',
        response: { 200: Readiness, 503: Readiness, ...errorResponses(500) },
      },
    },
    async (_request, reply) => {
      const checks = await Promise.all(
        readiness.map(async ({ name, check }) => {
          const result = await check().catch((error: Error) => error.message);
          return result === true ? { name, ok: true } : { name, ok: false, detail: result };
        }),
      );
      const ready = checks.every((c) => c.ok);
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
    },
  );
}
