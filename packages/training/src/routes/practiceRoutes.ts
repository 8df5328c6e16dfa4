import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contentItemOwner, servedStudentItem } from '@qiraa/content';
import { errorResponses, notFound, permissionDenied } from '@qiraa/http-kit';
import { callerOf, inOrganizationOr404, requestInput, type TargetCheck } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { loadLanguageSafety, servedOr } from '@qiraa/language-safety';
import { answerSessionItem, queuedSessionOf } from '@qiraa/sessions';
import { currentDay, submitReads, submitResponse } from '../commands/practiceQueue';
import { feedbackOf, GENERIC_EXPLANATION_AR } from '../queries/answerFeedback';
import { servedOf, trainingStateOf } from '../queries/practiceView';
import { safeFeedback, safeServed } from '../queries/servedSafely';
import { sessionItemOf, sessionStateOf } from '../queries/sessionPhaseView';
import { NextItemResponse, QueueStateResponse, SubmitBody, SubmitResponse, security } from '../schemas';

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
    // Tenant before persona, persona before validation: an unknown or another organization's item is 404 for
    // every caller, any other non-student 403 whatever the body.
    const itemTarget: TargetCheck = async (request) => {
      const { itemId } = requestInput(request);
      if (typeof itemId !== 'string') return;
      const item = await contentItemOwner(deps.sql, itemId);
      if (!item) throw notFound('item');
      if (item.organizationId !== null) inOrganizationOr404(callerOf(request), item.organizationId, 'item');
    };

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
            'Every text served (stem, options, hint, step prompt) passes the language-safety rule set in force; a ' +
            'refused stem or option is served as the filter’s rewrite, a refused hint or prompt is left out (null). ' +
            '`served: null` with reason `no_eligible_item` when no level can serve an item (nothing written, no ' +
            'substitute) or `day_ended` when today’s day is over. An open day of an earlier school day ends ' +
            '`window_closed`. An online session queued for the child (distribute-online, deliver-mixed, or its ' +
            'printed sheet’s link opened) is served first, item by item, one try each: `training.phase` ' +
            '`session` and `sessionId` name it (`trainingSessionId` null); the day opens after it. ' +
            `409 no_active_class. ${NO_LEVEL}`,
          security,
          response: { 200: NextItemResponse, ...errorResponses(401, 403, 409, 503) },
        },
      },
      async (request) => {
        const studentId = studentOf(request);
        // Loaded before anything is written: an unavailable rule set is 503, and nothing is served unfiltered.
        const filter = await loadLanguageSafety(deps.sql);
        const now = deps.clock.now();
        const queued = await queuedSessionOf(deps.sql, studentId);
        const session = queued ? await sessionItemOf(deps.sql, queued) : null;
        if (session) {
          return {
            ...session,
            served: { ...session.served, item: servedStudentItem(session.served.item, filter).item },
          };
        }
        const { fold, reason, preferSkillId } = await currentDay(deps, studentId, { open: true, now });
        return {
          trainingSessionId: fold?.opened.dayId ?? null,
          sessionId: null,
          served: reason === null ? safeServed(await servedOf(deps.sql, fold, preferSkillId), filter) : null,
          reason,
          training: trainingStateOf(fold),
        };
      },
    );

    app.post(
      '/practice/queues/current/submit-response',
      {
        config: { strictBody: true, anyPersona: ['STUDENT'], target: itemTarget },
        schema: {
          tags,
          summary: 'Answer the current practice item',
          description:
            'Student token only. Records the answer (counted towards the level only when it is an independent ' +
            'first try without a hint, not excluded and not rapid); a wrong first try gets `hint { kind item | ' +
            'light_hint | clearer_hint | generic, textAr }` and a second try, a wrong last try gets `explanation ' +
            '{ textAr }` (a hint or explanation the rule set in force refuses is replaced by the generic one). `next`: retry, next_item or done; `training.phase` practice | exit | done. The day ends ' +
            '`done` after the closing question and `cap` at 17 minutes of active time. 409 no_open_training_day, ' +
            'An item of a queued online session (phase `session`) is answered once: `correct`, `explanation` when ' +
            'wrong, `next` next_item, recorded on the session’s stream; `sessionId` names it. ' +
            `item_not_current (not the item being asked, e.g. a repeated submit); 422 unknown_option; an unknown item or ` +
            `another organization’s: 404 (before the persona check). ${NO_LEVEL}`,
          security,
          body: SubmitBody,
          response: { 200: SubmitResponse, ...errorResponses(400, 401, 403, 404, 409, 422, 503) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const now = deps.clock.now();
        // Every read the answer is decided on, in one statement (the item, whether a session is queued, the
        // learner, the active send, the open day); the checks below still run in their order on what came
        // back. For another persona it is a wasted read, refused just below.
        const reads = await submitReads(deps, caller.userId, request.body.itemId, now);
        const { item } = reads;
        // Tenant before persona: an unknown item or another organization's is 404 for every caller.
        if (!item) throw notFound('item');
        if (item.organization_id !== null) inOrganizationOr404(caller, item.organization_id, 'item');
        const studentId = studentOf(request);
        const filter = await loadLanguageSafety(deps.sql);
        // No session queued: answered from the training day, without the session's transaction.
        const answered = await answerSessionItem(
          deps,
          studentId,
          request.body,
          now,
          reads.sessionQueued ? undefined : null,
        );
        if (answered) {
          const explanationAr = servedOr(
            filter,
            answered.explanationAr ?? GENERIC_EXPLANATION_AR,
            GENERIC_EXPLANATION_AR,
          );
          return {
            trainingSessionId: null,
            sessionId: answered.queued.sessionId,
            correct: answered.answer.correct,
            attempt: 1,
            hint: null,
            explanation: answered.answer.correct ? null : { textAr: explanationAr },
            next: 'next_item' as const,
            training: sessionStateOf(answered.queued),
          };
        }
        const outcome = await submitResponse(deps, studentId, request.body, { now, reads });
        const { hint, explanation } = safeFeedback(await feedbackOf(deps.sql, outcome), filter);
        const training = trainingStateOf(outcome.fold);
        const ended = outcome.fold.ended !== null;
        // A day ended by the cap on a wrong first try gives no second try: the answer says done.
        const retry =
          !ended && !outcome.answer.correct && outcome.slot.attempt === 1 && outcome.slot.stepKind !== 'exit';
        return {
          trainingSessionId: outcome.fold.opened.dayId,
          sessionId: null,
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
            'session | practice | exit | done, exit { planned, done }, endReason, progress }`; while an online ' +
            `session is queued, phase \`session\` with its \`sessionId\` and progress. Writes nothing. ${NO_LEVEL}`,
          security,
          response: { 200: QueueStateResponse, ...errorResponses(401, 403, 409) },
        },
      },
      async (request) => {
        const studentId = studentOf(request);
        const { fold } = await currentDay(deps, studentId, { open: false, now: deps.clock.now() });
        const queued = await queuedSessionOf(deps.sql, studentId);
        return {
          trainingSessionId: fold?.opened.dayId ?? null,
          sessionId: queued?.sessionId ?? null,
          date: fold?.opened.schoolDay ?? null,
          training: queued ? sessionStateOf(queued) : trainingStateOf(fold),
        };
      },
    );
  };
