import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, BigintId, conflict, errorResponses, notFound, permissionDenied } from '@qiraa/http-kit';
import { callerOf, reachOr404, studentReach, type TargetCheck } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { rescindBadge } from '../commands/rescindBadge';
import { badgeStudent } from '../queries/badgeStudent';
import { BADGE_RESCIND_CODE, checkOverrideCode, type OverrideCodeValue } from '../rules/overrideCodes';

const RescindParams = Type.Object({ studentBadgeId: BigintId });

/** Strict: `overrideCode` is the only key (another one is 400 UNKNOWN_FIELD); its absence is 400 too. */
const RescindBody = Type.Object(
  {
    overrideCode: Type.Optional(
      Type.String({ description: `an override code of scope gamification_rescind: only ${BADGE_RESCIND_CODE}` }),
    ),
  },
  { additionalProperties: false },
);

const RescindResponse = Type.Object({
  studentBadgeId: Type.Integer(),
  status: Type.Unsafe<'rescinded'>(Type.String({ enum: ['rescinded'] })),
  compensatingXpTransactionId: Type.Integer({ description: 'the XpReversed row (kind rescind_reversal)' }),
  reversalDelta: Type.Integer({
    maximum: 0,
    description:
      'minus the badge’s bonus XP: negative for every badge decided by rule set v2 on (the current one, which ' +
      'pays a badge’s bonus in full); 0 only for a badge rule set v1 awarded after its session cap was used up',
  }),
});

const invalidCode = (reason: string) =>
  new ApiError(400, 'OVERRIDE_CODE_INVALID', 'overrideCode must be a code of scope gamification_rescind', {
    reason,
    details: [{ field: 'overrideCode', issue: reason }],
  });

/** POST /api/teachers/badges/{studentBadgeId}/rescind: Badge state table, active → rescinded. */
export const rescindRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Tenant before permission (auth plugin): the badge's student must be of the caller's organization.
    const badgeTarget: TargetCheck = async (request) => {
      const { studentBadgeId } = request.params as { studentBadgeId: number };
      const studentId = await badgeStudent(deps.sql, studentBadgeId);
      if (studentId === undefined) throw notFound('badge');
      await reachOr404(deps.sql, request, 'student', studentId);
    };

    app.post(
      '/teachers/badges/:studentBadgeId/rescind',
      {
        config: { anyPermission: ['RECORD_TEACHER_ACTION'], target: badgeTarget, strictBody: true },
        schema: {
          tags: ['gamification'],
          summary: 'Rescind a badge awarded to a student of the caller’s class',
          description:
            'ClassTeacher of the badge’s student only (another teacher 403, another organization or an unknown ' +
            'badge 404, other personas 403). Body `{ overrideCode }` only, which must be `Gam_Award_Invalid_05`: ' +
            'missing → 400 OVERRIDE_CODE_INVALID reason missing_override_code; another scope’s or an unknown code → ' +
            '400 OVERRIDE_CODE_INVALID reason wrong_scope; another key → 400 UNKNOWN_FIELD. Appends the rescind and a ' +
            'compensating XP transaction (nothing is deleted). Already rescinded → 409 CONFLICT reason ' +
            'already_rescinded; of parallel rescinds exactly one succeeds.',
          security: [{ bearerAuth: [] }],
          params: RescindParams,
          body: RescindBody,
          response: { 200: RescindResponse, ...errorResponses(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { studentBadgeId } = request.params;
        const badgeStudentId = await badgeStudent(deps.sql, studentBadgeId);
        if (badgeStudentId === undefined) throw notFound('badge');
        const reached = await studentReach(deps.sql, caller, Number(badgeStudentId));
        if (reached.reach !== 'teacher') throw permissionDenied('only a teacher of the student’s class may rescind');

        const check = checkOverrideCode(request.body.overrideCode, 'gamification_rescind');
        if (!check.ok) throw invalidCode(check.reason);

        const result = await rescindBadge(deps, {
          studentBadgeId,
          overrideCode: check.code.code as OverrideCodeValue,
          actorUserId: caller.userId,
          organizationId: reached.organizationId,
        });
        if (result.kind === 'not_found') throw notFound('badge');
        if (result.kind === 'already_rescinded') throw conflict('already_rescinded', 'badge is already rescinded');
        return {
          studentBadgeId: result.studentBadgeId,
          status: 'rescinded' as const,
          compensatingXpTransactionId: result.compensatingXpTransactionId,
          reversalDelta: result.reversalDelta,
        };
      },
    );
  };
