import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, notFound, permissionDenied } from '@qiraa/http-kit';
import { callerOf, inOrganizationOr404 } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { currentDay, submitResponse } from '../commands/practiceQueue';
import { NextItemResponse, QueueStateResponse, SubmitBody, SubmitResponse, security } from '../schemas';
import { feedbackOf } from '../views/answerFeedback';
import { servedOf, trainingStateOf } from '../views/practiceView';

const tags = ['training'];

/** The practice queue is the child's own: a student token, every other persona 403. */
function studentOf(request: Parameters<typeof callerOf>[0]): number {
  const caller = callerOf(request);
  if (caller.persona !== 'STUDENT') throw permissionDenied('only a student practises');
  return caller.userId;
}

const NO_LEVEL =
  'No student payload carries a training level, level name, item pattern, rule code, support skill or rank class.';

/** GET next-item, POST submit-response, GET state under /api/practice/queues/current (docs/training.md). */
export const practiceRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/practice/queues/current/next-item',
      {
        schema: {
          tags,
          summary: 'The next practice item of the child’s training day (opens today’s day when none is open)',
          description:
            'Student token only. Opens today’s training day on the first call of the school day (levels started ' +
            'from the screen seed, last year’s level or the experience type; 3 exercises of up to 4 questions, ' +
            'never more than the level can serve, and 1 closing question), then serves the current item in the ' +
            'student projection with `step { kind target | bridge | exit, startsBridge, strategyPromptAr }` (a ' +
            'support step’s first item carries its introduction prompt). Repeating the call serves the same item. ' +
            '`served: null` with reason `no_eligible_item` when no level can serve an item (nothing written, no ' +
            'substitute) or `day_ended` when today’s day is over. An open day of an earlier school day ends ' +
            `\`window_closed\`. 409 no_active_class. ${NO_LEVEL}`,
          security,
          response: { 200: NextItemResponse, ...errorResponses(401, 403, 409) },
        },
      },
      async (request) => {
        const studentId = studentOf(request);
        const { fold, reason } = await currentDay(deps, studentId, { open: true });
        return {
          trainingSessionId: fold?.opened.dayId ?? null,
          served: reason === null ? await servedOf(deps.sql, fold) : null,
          reason,
          training: trainingStateOf(fold),
        };
      },
    );

    app.post(
      '/practice/queues/current/submit-response',
      {
        config: { strictBody: true },
        schema: {
          tags,
          summary: 'Answer the current practice item',
          description:
            'Student token only. Records the answer (counted towards the level only when it is an independent ' +
            'first try without a hint, not excluded and not rapid); a wrong first try gets `hint { kind item | ' +
            'light_hint | clearer_hint | generic, textAr }` and a second try, a wrong last try gets `explanation ' +
            '{ textAr }`. `next`: retry, next_item or done; `training.phase` practice | exit | done. The day ends ' +
            '`done` after the closing question and `cap` at 17 minutes of active time. 409 no_open_training_day, ' +
            `item_not_current (not the item being asked, e.g. a repeated submit); 422 unknown_option; an unknown item or ` +
            `another organization’s: 404 (before the persona check). ${NO_LEVEL}`,
          security,
          body: SubmitBody,
          response: { 200: SubmitResponse, ...errorResponses(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        // Tenant before persona: an unknown item or another organization's is 404 for every caller.
        const [item] = await deps.sql<{ organization_id: string | null }[]>`
          select organization_id from content_items where id = ${request.body.itemId}`;
        if (!item) throw notFound('item');
        if (item.organization_id !== null) inOrganizationOr404(callerOf(request), item.organization_id, 'item');
        const studentId = studentOf(request);
        const outcome = await submitResponse(deps, studentId, request.body);
        const { hint, explanation } = await feedbackOf(deps.sql, outcome);
        const training = trainingStateOf(outcome.fold);
        const retry = !outcome.answer.correct && outcome.slot.attempt === 1 && outcome.slot.stepKind !== 'exit';
        const ended = outcome.fold.ended !== null;
        return {
          trainingSessionId: outcome.fold.opened.dayId,
          correct: outcome.answer.correct,
          attempt: outcome.answer.attempt,
          hint,
          explanation,
          next: retry ? ('retry' as const) : ended ? ('done' as const) : ('next_item' as const),
          training,
        };
      },
    );

    app.get(
      '/practice/queues/current/state',
      {
        schema: {
          tags,
          summary: 'The child’s practice queue state today',
          description:
            'Student token only. Today’s day (or null before the first next-item of the day): `training { phase ' +
            `practice | exit | done, exit { planned, done }, endReason, progress }\`. Writes nothing. ${NO_LEVEL}`,
          security,
          response: { 200: QueueStateResponse, ...errorResponses(401, 403, 409) },
        },
      },
      async (request) => {
        const studentId = studentOf(request);
        const { fold } = await currentDay(deps, studentId, { open: false });
        return {
          trainingSessionId: fold?.opened.dayId ?? null,
          date: fold?.opened.schoolDay ?? null,
          training: trainingStateOf(fold),
        };
      },
    );
  };
