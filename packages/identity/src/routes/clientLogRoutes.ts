import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, errorResponses } from '@qiraa/http-kit';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { callerOf } from '../auth/caller';

/** Largest accepted client log body; more answers 413 PAYLOAD_TOO_LARGE. */
export const CLIENT_LOG_BODY_LIMIT = 8 * 1024;
/** Client log lines per user and window; the next one answers 429 RATE_LIMITED with retryAfter. */
export const CLIENT_LOG_RATE = { max: 60, timeWindowMs: 60_000 } as const;
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

/** One limiter key per user: a shared school network (one IP) does not throttle a whole class. */
const perCaller = (request: FastifyRequest) => (request.caller ? `user:${request.caller.userId}` : `ip:${request.ip}`);

/**
 * POST /api/logs/client: front ends report problems as one structured server log line. The body is
 * bounded (closed level enum, event code, ≤ 10 context values, 8 KiB) and each user may send 60 a minute.
 */
export const clientLogRoutes = (): FastifyPluginAsyncTypebox => async (app) => {
  // Only routes of this plugin that set `config.rateLimit` are limited. The counters live in this
  // process's memory, so with several API processes each one allows its own 60 a minute.
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new ApiError(429, 'RATE_LIMITED', 'too many client log lines; retry later', {
        retryAfter: Math.max(1, Math.ceil(context.ttl / 1000)),
      }),
  });

  app.post(
    '/logs/client',
    {
      bodyLimit: CLIENT_LOG_BODY_LIMIT,
      config: {
        rateLimit: {
          max: CLIENT_LOG_RATE.max,
          timeWindow: CLIENT_LOG_RATE.timeWindowMs,
          // After the auth hook (instance onRequest hooks run before a route's), so the caller is known.
          hook: 'onRequest',
          keyGenerator: perCaller,
        },
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
