import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, notFound, permissionDenied, refusalResponses } from '@qiraa/http-kit';
import { type Caller, callerOf, inOrganizationOr404, studentReach, type TargetCheck } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { loadLanguageSafety } from '@qiraa/language-safety';
import type { FastifyRequest } from 'fastify';
import { readAnswerFacts } from '../commands/answerFacts';
import { SittingRefused, sittingRefusal } from '../commands/refusal';
import { answerSitting, loadSitting, resumeSitting } from '../commands/sittingCommands';
import { type StartOutcome, startSitting } from '../commands/startSitting';
import type { SittingFold, SittingMode } from '../events/sittingTypes';
import { sittingOrganization } from '../queries/attemptOwners';
import { readSitting } from '../queries/readSitting';
import { sittingResultOf } from '../queries/sittingResultOf';
import { studentStateOf } from '../queries/sittingView';
import {
  AnswerBody,
  DiagnosticStateResponse,
  ReDiagnosticBody,
  SittingParams,
  StartDiagnosticResponse,
  StudentSessionState,
} from '../schemas/sittingSchemas';

const TAGS = ['assessment'];
const SECURITY = [{ bearerAuth: [] }];

/** A command's refusal becomes its 409 / 422 answer with the `reason`. */
async function refusing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SittingRefused) throw sittingRefusal(error.reason);
    throw error;
  }
}

/** Sittings are taken by students themselves; every other persona is refused in its own organization. */
function studentOnly(caller: Caller): void {
  if (caller.persona !== 'STUDENT') throw permissionDenied('only a student takes a diagnostic sitting');
}

const START_REFUSALS = ['no_active_class', 'no_open_window', 'not_screened', 'sitting_already_done'];

const STAFF_REACH = new Set(['teacher', 'admin', 'super']);

export const sittingRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Tenant before permission: an unknown sitting or another organization's is 404 for everyone. The auth
    // hook runs a target only for callers lacking a route's anyPermission; these routes gate by persona and
    // reach instead, so every handler runs it first itself.
    const sittingTarget: TargetCheck = async (request) => {
      const { id } = request.params as { id: string };
      inOrganizationOr404(callerOf(request), await sittingOrganization(deps.sql, id), 'sitting');
    };

    /**
     * The sitting and the answered item are both tenant resources: another organization's item is 404 before the
     * persona check (403), like the sitting itself and like an item that does not exist.
     */
    const answerTarget: TargetCheck = async (request) => {
      await sittingTarget(request);
      const itemId = (request.body as { itemId?: unknown } | undefined)?.itemId;
      if (typeof itemId !== 'string') return;
      const { id } = request.params as { id: string };
      const { item } = await readAnswerFacts(deps.sql, id, itemId);
      if (!item) throw notFound('item');
      if (item.organizationId !== null) inOrganizationOr404(callerOf(request), item.organizationId, 'item');
    };

    /** The caller's own sitting, read from its stream (404 for another student's). */
    const ownSitting = async (request: FastifyRequest, id: string): Promise<SittingFold> => {
      await sittingTarget(request);
      const caller = callerOf(request);
      studentOnly(caller);
      const fold = await loadSitting(deps, id);
      if (!fold || fold.started.studentId !== caller.userId) throw notFound('sitting');
      return fold;
    };

    const startResponse = async (outcome: StartOutcome) => {
      if (outcome.kind === 'no_screening_form') {
        return {
          sittingId: null,
          mode: null,
          status: null,
          endReason: null,
          completed: false,
          sections: [],
          state: { sectionKey: null },
          progress: { answered: 0, total: 0 },
          item: null,
          passage: null,
          breakBefore: false,
          resumed: false,
          firstItemId: null,
          reason: 'no_screening_form' as const,
        };
      }
      const view = await studentStateOf(deps.sql, outcome.fold);
      return { ...view, resumed: outcome.kind === 'resumed', firstItemId: view.item?.id ?? null };
    };

    const start = (request: FastifyRequest, mode: SittingMode, subSkillIds?: string[]) => {
      const caller = callerOf(request);
      studentOnly(caller);
      return refusing(async () =>
        startResponse(await startSitting(deps, { studentId: caller.userId, mode, subSkillIds, now: deps.clock.now() })),
      );
    };

    const startErrors = { ...errorResponses(401, 403, 409, 422, 503), ...refusalResponses({ 409: START_REFUSALS }) };

    app.post(
      '/diagnostic-sessions/start',
      {
        schema: {
          tags: TAGS,
          summary: 'Start (or resume) the student’s diagnostic sitting of the open window',
          description:
            'Student token only (other personas 403). Finds the open screening window of the student’s class, the ' +
            'diagnostic blueprint cell of the grade and window and its operational screening form(s), pins them ' +
            'with the item-bank pin and the cut-table versions on SittingStarted, and serves the first question in ' +
            'the student projection. An open sitting of the same window is resumed (resumed: true), never ' +
            'duplicated, even under parallel starts. No operational form: 200 with sittingId and firstItemId null ' +
            'and reason no_screening_form (nothing written). 409 reasons: no_active_class, no_open_window, ' +
            'not_screened, sitting_already_done (a re-diagnostic re-sits a finished window sitting).',
          security: SECURITY,
          response: { 200: StartDiagnosticResponse, ...startErrors },
        },
      },
      (request) => start(request, 'window'),
    );

    app.post(
      '/diagnostic-sessions/start/re-diagnostic',
      {
        config: { strictBody: true, anyPersona: ['STUDENT'] },
        schema: {
          tags: TAGS,
          summary: 'Re-sit the diagnostic after a finished sitting of the open window',
          description:
            'Student token only. Needs a finished (done, not voided) sitting of the open window, else 409 ' +
            'no_finished_sitting; an open sitting of the window is resumed instead. A measure cell ignores ' +
            'subSkillIds and re-sits the whole cell; a skill cell needs them (422 sub_skills_required) and each ' +
            'must be in the cell (422 sub_skill_not_in_cell). The re-sit becomes the latest digital attempt of ' +
            'the window (the teacher page shows it). Other answers as POST /api/diagnostic-sessions/start.',
          security: SECURITY,
          body: ReDiagnosticBody,
          response: {
            200: StartDiagnosticResponse,
            ...errorResponses(400, 401, 403, 409, 422, 503),
            ...refusalResponses({ 409: [...START_REFUSALS, 'no_finished_sitting'] }),
          },
        },
      },
      (request) => start(request, 're_diagnostic', request.body.subSkillIds),
    );

    app.post(
      '/diagnostic-sessions/:id/resume',
      {
        config: { target: sittingTarget },
        schema: {
          tags: TAGS,
          summary: 'Resume the student’s own diagnostic sitting',
          description:
            'The student of the sitting only (another student’s sitting 404, other personas 403). Returns ' +
            'StudentSessionState: the question served now, or completed: true. 409 reasons: voided, ' +
            'sitting_stopped, window_closed (an open sitting whose window closed is stopped by this call).',
          security: SECURITY,
          params: SittingParams,
          response: { 200: StudentSessionState, ...errorResponses(401, 403, 404, 409, 422, 503) },
        },
      },
      async (request) => {
        const fold = await ownSitting(request, request.params.id);
        return studentStateOf(deps.sql, await refusing(() => resumeSitting(deps, fold, deps.clock.now())));
      },
    );

    app.post(
      '/diagnostic-sessions/:id/answers',
      {
        config: { target: answerTarget, strictBody: true, anyPersona: ['STUDENT'] },
        schema: {
          tags: TAGS,
          summary: 'Answer the question served now',
          description:
            'The student of the sitting only. Body { itemId, answer } (answer: the chosen option key). Scored on ' +
            'the server; the last answer completes the sitting (SittingCompleted with the result summary). An ' +
            'identical re-sent answer is idempotent (same state, nothing written). 409 reasons: ' +
            'not_the_served_item, already_answered (another option for an answered question), sitting_completed, ' +
            'sitting_stopped, voided, window_closed, concurrent_answer; 422 reason not_an_option.',
          security: SECURITY,
          params: SittingParams,
          body: AnswerBody,
          response: { 200: StudentSessionState, ...errorResponses(400, 401, 403, 404, 409, 422, 503) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { id } = request.params;
        // One statement: the sitting's row, the answered item and the window facts (the command decides on them).
        const facts = await readAnswerFacts(deps.sql, id, request.body.itemId);
        // The answered item is a tenant resource too: global content, or the caller's organization's (else 404).
        if (!facts.item) throw notFound('item');
        if (facts.item.organizationId !== null) inOrganizationOr404(caller, facts.item.organizationId, 'item');
        inOrganizationOr404(caller, facts.sitting?.organizationId, 'sitting');
        studentOnly(caller);
        if (!facts.sitting || facts.sitting.started.studentId !== caller.userId) throw notFound('sitting');
        // The next question is served through the rule set in force: unavailable, refuse before the answer is kept.
        await loadLanguageSafety(deps.sql);
        const fold = await refusing(() => answerSitting(deps, id, { ...request.body, now: deps.clock.now() }, facts));
        return studentStateOf(deps.sql, fold, facts.next);
      },
    );

    app.get(
      '/diagnostic-sessions/:id/state',
      {
        config: { target: sittingTarget },
        schema: {
          tags: TAGS,
          summary: 'State of a diagnostic sitting (DiagnosticStateResponse)',
          description:
            'The student of the sitting gets their state (no scores, no correct options); staff reaching the ' +
            'student (a teacher of the class, an admin of the organization, the super-admin) also get measures ' +
            '(MeasureResult[] with the pinned cut version), composite (comprehension out of 12, informational) and ' +
            'itemReview (position, pattern, skill, correct, the child’s answer; never question text or the correct ' +
            'option). Another student’s sitting 404; other callers of the organization 403.',
          security: SECURITY,
          params: SittingParams,
          response: { 200: DiagnosticStateResponse, ...errorResponses(401, 403, 404, 422, 503) },
        },
      },
      async (request) => {
        await sittingTarget(request);
        const caller = callerOf(request);
        const fold = await readSitting(deps.sql, request.params.id);
        if (!fold) throw notFound('sitting');
        const studentId = fold.started.studentId;
        const view = { ...(await studentStateOf(deps.sql, fold)), voided: fold.voided };
        if (caller.userId === studentId) return view;
        if (caller.persona === 'STUDENT') throw notFound('sitting');
        const reached = await studentReach(deps.sql, caller, studentId);
        if (!reached.reach || !STAFF_REACH.has(reached.reach)) throw permissionDenied();
        const result = await sittingResultOf(deps.sql, fold.attemptId);
        return { ...view, measures: result!.measures, composite: result!.composite, itemReview: result!.itemReview };
      },
    );
  };
