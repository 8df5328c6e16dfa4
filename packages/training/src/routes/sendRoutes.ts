import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import { callerOf } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { sendTraining } from '../commands/sendTraining';
import { trainingTarget } from '../queries/groupScope';
import { sendProgressOf } from '../queries/sendProgress';
import { SendBody, SendHeaders, SendParams, SendProgressResponse, SendResponse } from '../schemas/sendSchemas';

/** POST /api/training/sends: assign-training, the teacher send and the staff send on behalf (docs/training-alerts.md). */
export const sendRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/training/sends',
      {
        // Teachers and staff send; anyone else (parents, students) is 403 before the body is validated.
        config: {
          anyPermission: ['VIEW_OWN_CLASSES', 'MANAGE_ORG', 'VIEW_SCHOOL', 'VIEW_ORGANIZATION'],
          target: trainingTarget(deps.sql),
        },
        schema: {
          tags: ['training'],
          summary: 'Send training to a class or a support group (assign-training)',
          description:
            'A teacher sends to a class they teach or a group they own (else 403 NOT_CLASS_TEACHER); staff (admin, ' +
            'principal of the class’s school, manager) send for a teacher with `onBehalfOfTeacherUserId` (422 ' +
            '`on_behalf_required`, `on_behalf_not_a_teacher`; 403 `on_behalf_teacher_not_in_scope`). Exactly one of ' +
            'classId or groupId. The window ends at untilDate/untilTime in the organization’s time zone (422 ' +
            '`window_already_over`, `until_time_required` for today without a time, `window_too_short` under 20 ' +
            'minutes). 409 `send_closed` (the class’s academic year is over), `empty_target` (no active child); 503 ' +
            'TRAINING_UNAVAILABLE (no operational training content to serve); 429 RATE_LIMITED past 30 sends per 15 ' +
            'minutes. Header `X-Idempotency-Key`, one key per distinct body: the same body again answers the first ' +
            'success (header `Idempotent-Replayed: true`) and changes nothing; another body with a used key is 422 ' +
            '`idempotency_key_reused`. A refusal keeps nothing.',
          security: [{ bearerAuth: [] }],
          headers: SendHeaders,
          body: SendBody,
          response: { 201: SendResponse, ...errorResponses(400, 401, 403, 404, 409, 422, 429, 503) },
        },
      },
      async (request, reply) => {
        const key = request.headers['x-idempotency-key'] as string;
        const { status, view, replayed } = await sendTraining(
          deps,
          callerOf(request),
          key,
          request.body,
          deps.clock.now(),
        );
        if (replayed) reply.header('idempotent-replayed', 'true');
        return reply.code(status as 201).send(view);
      },
    );

    app.get(
      '/training/sends/:sendId',
      {
        schema: {
          tags: ['training'],
          summary: 'A send’s delivery and progress',
          description:
            'Read as the send is made: a teacher who teaches the class or owns the group (else 403 ' +
            'NOT_CLASS_TEACHER); admin, manager, super-admin; a principal of the class’s school (not a group send); ' +
            'anyone else 403; another organization’s or an unknown send 404; a non-uuid id 422. `state` open until ' +
            '`until`, then over (the queue then serves the levelled plan again). Per recipient: `reached` (the queue ' +
            'served the sent skill in the window), answers and correct answers to the sent skill in the window ' +
            '(any skill for a send without one), first and last answer.',
          security: [{ bearerAuth: [] }],
          params: SendParams,
          response: { 200: SendProgressResponse, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => sendProgressOf(deps.sql, callerOf(request), request.params.sendId, deps.clock.now()),
    );
  };
