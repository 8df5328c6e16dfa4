import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import { callerOf } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { SendBody, SendHeaders, SendResponse } from './sendSchemas';
import { sendTraining } from './sendTraining';

/** POST /api/training/sends: assign-training, the teacher send and the staff send on behalf (docs/training-alerts.md). */
export const sendRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/training/sends',
      {
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
        const { status, view, replayed } = await sendTraining(deps, callerOf(request), key, request.body);
        if (replayed) reply.header('idempotent-replayed', 'true');
        return reply.code(status as 201).send(view);
      },
    );
  };
