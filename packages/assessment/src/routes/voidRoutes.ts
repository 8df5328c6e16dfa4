import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { conflict, errorResponses, notFound, unprocessable } from '@qiraa/http-kit';
import { callerOf, tenantTarget } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { voidAttempt } from '../commands/voidAttempt';
import { ATTEMPT_KINDS, type AttemptKind, VOID_REASONS, type VoidReason } from '../events';
import { heldClassOr404 } from '../queries/heldClass';
import { ClassIdSchema, literals, security, tags, WindowSchema } from '../schemas';

const VoidBody = Type.Object(
  {
    kind: literals(ATTEMPT_KINDS),
    targetId: Type.String({ minLength: 1, maxLength: 64, description: 'the attempt’s id (a uuid)' }),
    reason: literals(VOID_REASONS),
  },
  { additionalProperties: false },
);

const VoidRecordSchema = Type.Object({
  id: Type.String({ pattern: '^void:[0-9]+$', description: 'the audit form `void:<int>`' }),
  academicYear: Type.String(),
  evidenceWindow: WindowSchema,
  endedActiveSitting: Type.Boolean({ description: 'the attempt was still open and the void ended it' }),
  voidKind: literals(ATTEMPT_KINDS),
  voidReason: literals(VOID_REASONS),
});

/** POST /api/teacher/classes/{classId}/taqyeem/void: void a mistaken attempt of the class. */
export const voidRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/teacher/classes/:classId/taqyeem/void',
      {
        config: {
          anyPermission: ['RECORD_TEACHER_ACTION'],
          target: tenantTarget(deps.sql, { classId: 'class' }),
          strictBody: true,
        },
        schema: {
          tags,
          summary: 'Void an attempt of the class (digital sitting, oral reading, word-list read)',
          description:
            'A TEACHER with RECORD_TEACHER_ACTION holding the class; a class not held, another organization’s ' +
            'or an unknown one is 404; other personas 403. Body exactly { kind, targetId, reason } (another key ' +
            'is 400 UNKNOWN_FIELD). The attempt stays stored and leaves decisions, trends and reads: ' +
            'AttemptVoided is appended to its stream (an open digital sitting first gets SittingStopped reason ' +
            'voided; an open oral reading takes no more marks) and the audit event measurement_void (id ' +
            '`void:<int>`) is recorded. 404 NOT_FOUND: the target is no attempt of this class. 422 ' +
            'VALIDATION_ERROR reason not_a_window_sitting: it is an attempt of the class but not of the named ' +
            'kind, or of another academic year than the class’s. 409 CONFLICT reason already_voided (also for ' +
            'all but one of parallel voids). Nothing is written on a refusal.',
          security,
          params: Type.Object({ classId: ClassIdSchema }),
          body: VoidBody,
          response: { 201: VoidRecordSchema, ...errorResponses(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const cls = await heldClassOr404(deps.sql, caller, request.params.classId, false);
        const result = await voidAttempt(deps, {
          cls,
          kind: request.body.kind as AttemptKind,
          targetId: request.body.targetId,
          reason: request.body.reason as VoidReason,
          actorUserId: caller.userId,
        });
        if (result.kind === 'not_found') throw notFound('attempt');
        if (result.kind === 'not_a_window_sitting')
          throw unprocessable(
            'not_a_window_sitting',
            'the target is not an attempt of that kind in a window of this class',
            [{ field: 'targetId', issue: 'not_a_window_sitting' }],
          );
        if (result.kind === 'already_voided') throw conflict('already_voided', 'the attempt is already voided');
        return reply.code(201).send(result.record);
      },
    );
  };
