import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { hitSharedWindow } from '../commands/sharedWindowLimit';
import { callerOf } from '../engine/caller';

/** Largest accepted client log body; more answers 413 PAYLOAD_TOO_LARGE. */
export const CLIENT_LOG_BODY_LIMIT = 8 * 1024;
/** Client log lines per user and window (all API processes together); the next one answers 429 RATE_LIMITED. */
export const CLIENT_LOG_RATE = { kind: 'client_log', max: 60, windowMs: 60_000 } as const;
export const CLIENT_LOG_MAX_CONTEXT_KEYS = 10;

const ClientLogBody = Type.Object({
  level: Type.Unsafe<'debug' | 'info' | 'warn' | 'error'>(
    Type.String({ enum: ['debug', 'info', 'warn', 'error'], description: 'closed set' }),
  ),
  event: Type.String({
    pattern: '^[a-z][a-z0-9_.]{1,63}$',
    description: 'an event code such as `reader.audio.play_failed`, not free text',
  }),
  route: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "the client's screen or route" })),
  context: Type.Optional(
    Type.Record(
      Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_.]{0,63}$' }),
      Type.Union([Type.String({ maxLength: 200 }), Type.Number(), Type.Boolean()]),
      {
        maxProperties: CLIENT_LOG_MAX_CONTEXT_KEYS,
        additionalProperties: false,
        description: 'at most 10 keys (identifiers); values are numbers, booleans or strings of at most 200 characters',
      },
    ),
  ),
});

const Accepted = Type.Object({ accepted: Type.Literal(true) });

/**
 * POST /api/logs/client: front ends report problems as one structured server log line. The body is
 * bounded (closed level enum, event code, ≤ 10 context values, 8 KiB) and each user may send 60 a minute,
 * counted in PostgreSQL so the limit holds across API processes. One window per user: a shared school
 * network (one IP) does not throttle a whole class.
 */
export const clientLogRoutes =
  (deps: Pick<ContextDeps, 'sql' | 'clock'>): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/logs/client',
      {
        bodyLimit: CLIENT_LOG_BODY_LIMIT,
        // A route's onRequest runs after the auth hook (the app's), so the caller is known; before the body is read.
        onRequest: async (request) => {
          await hitSharedWindow(deps.sql, deps.clock, CLIENT_LOG_RATE, `user:${callerOf(request).userId}`);
        },
        schema: {
          tags: ['ops'],
          summary: 'Record one client-side log line (bounded; 60 per minute per user)',
          security: [{ bearerAuth: [] }],
          body: ClientLogBody,
          response: { 202: Accepted, ...errorResponses(400, 401, 413, 415, 422, 429) },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const { level, event, route, context } = request.body;
        request.log[level](
          {
            source: 'client',
            userId: caller.userId,
            organizationId: caller.organizationId,
            event,
            ...(route === undefined ? {} : { clientRoute: route }),
            ...(context === undefined ? {} : { context }),
          },
          `client ${event}`,
        );
        return reply.code(202).send({ accepted: true as const });
      },
    );
  };
