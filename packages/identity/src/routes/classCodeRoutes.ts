import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { rotateClassCode } from '../commands/rotateClassCode';
import { callerOf } from '../engine/caller';
import { loginCards } from '../queries/loginCards';
import { tenantTarget } from '../queries/tenantTarget';
import { ClassCode, ClassId, FullNameAr, QuickCode } from '../schemas';
import { LoginName } from '../schemas/loginName';
import { ClassParams, security, UserIdValue } from '../schemas/routeSchemas';

const tags = ['tenancy'];
const ExpiresAt = Type.String({ format: 'date-time' });

const LoginCardsResponse = Type.Object({
  classId: ClassId,
  className: Type.String(),
  loginCode: ClassCode,
  loginCodeExpiresAt: ExpiresAt,
  cards: Type.Array(
    Type.Object({ studentId: UserIdValue, fullNameAr: FullNameAr, quickCode: QuickCode, loginName: LoginName }),
  ),
});

const RotateResponse = Type.Object({
  classId: ClassId,
  loginCode: ClassCode,
  loginCodeExpiresAt: ExpiresAt,
  rotated: Type.Boolean({ description: 'false when onlyIfExpired found the code still live' }),
});

/** A class's login link: the printable cards and the code renewal. */
export const classCodeRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/classes/:classId/login-cards',
      {
        schema: {
          tags,
          summary: "The class's login code and a card per active student, ordered by quickCode",
          security,
          params: ClassParams,
          response: { 200: LoginCardsResponse, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => loginCards(deps.sql, callerOf(request), request.params.classId),
    );

    app.post(
      '/classes/:classId/login-code/rotate',
      {
        config: {
          anyPermission: ['MANAGE_CLASS_STUDENTS', 'MANAGE_ORG'],
          target: tenantTarget(deps.sql, { classId: 'class' }),
        },
        schema: {
          tags,
          summary: 'Renew the class login code (valid 365 days); the old link dies at once',
          description:
            'Teachers of the class (MANAGE_CLASS_STUDENTS) and organization admins (MANAGE_ORG). `onlyIfExpired: ' +
            'true` on a live code returns it unchanged (`rotated: false`). 10 rotations per 15 minutes per user, ' +
            'then 429 RATE_LIMITED with Retry-After.',
          security,
          params: ClassParams,
          body: Type.Object({ onlyIfExpired: Type.Optional(Type.Boolean({ default: false })) }),
          response: { 200: RotateResponse, ...errorResponses(401, 403, 404, 422, 429) },
        },
      },
      async (request) =>
        rotateClassCode(deps, callerOf(request), request.params.classId, {
          onlyIfExpired: request.body.onlyIfExpired === true,
          now: deps.clock.now(),
        }),
    );
  };
