import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { issueHandoffCode, redeemHandoffCode } from '../commands/handoffCodes';
import { issueTokens } from '../commands/issueTokens';
import { callerOf } from '../engine/caller';
import { tenantTarget } from '../queries/tenantTarget';
import { UserId } from '../schemas';

const tags = ['auth'];

const HandoffCodeBody = Type.Object(
  { studentId: Type.Optional(UserId) },
  { additionalProperties: false, description: 'without studentId the caller hands over their own session' },
);
const HandoffCodeResponse = Type.Object({
  code: Type.String({ description: '10 Crockford base32 symbols, single-use' }),
  expiresAt: Type.String({ format: 'date-time' }),
  expiresIn: Type.Integer({ description: 'seconds; 120' }),
});
const RedeemBody = Type.Object(
  { code: Type.String({ pattern: '^[0-9A-Za-z]{10}$' }) },
  { additionalProperties: false },
);

/** Handoff codes: a signed-in screen hands a session (its own, or a student's) to another device once. */
export const handoffRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/auth/handoff-codes',
      {
        config: { target: tenantTarget(deps.sql, { studentId: 'student' }) },
        schema: {
          tags,
          summary: 'Issue a single-use handoff code (120 s) for the caller or a student they teach or administer',
          security: [{ bearerAuth: [] }],
          body: HandoffCodeBody,
          response: { 201: HandoffCodeResponse, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(await issueHandoffCode(deps.sql, callerOf(request), request.body.studentId, deps.clock.now())),
    );

    app.post(
      '/auth/handoff-codes/redeem',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Redeem a handoff code once for a token pair; expired, used or unknown: 401 STATE_EXPIRED',
          body: RedeemBody,
          response: { 200: Type.Ref('AuthTokensResponse'), ...errorResponses(401, 422) },
        },
      },
      async (request) => {
        const caller = await redeemHandoffCode(deps.sql, request.body.code, deps.clock.now());
        return issueTokens(
          app,
          deps.sql,
          {
            id: caller.userId,
            persona: caller.persona,
            organizationId: caller.organizationId,
          },
          deps.clock.now(),
        );
      },
    );
  };
