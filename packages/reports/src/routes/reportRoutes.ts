import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { STAFF_READERS } from '@qiraa/assessment';
import { errorResponses, unprocessable } from '@qiraa/http-kit';
import { callerOf, type TargetCheck, tenantTarget } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { decodeCursor } from '../queries/cursor';
import { sessionDetail, sessionOf } from '../queries/sessionDetail';
import type { DetailKind } from '../queries/sessionKinds';
import { sessionResults } from '../queries/sessionResults';
import { requireStaffReach } from '../queries/staffReach';
import { subSkillReport } from '../queries/subSkillReport';
import {
  RESULTS_PAGE_DEFAULT,
  RESULTS_PAGE_MAX,
  ResultsQuery,
  SessionDetailResponse,
  SessionParams,
  SessionResultsResponse,
  StudentParams,
  SubSkillReportQuery,
  SubSkillReportResponse,
  security,
  tags,
} from '../schemas';

const REACH =
  'Staff who reach the child: a teacher of one of the child’s active classes, the principal of the child’s ' +
  'school, the organization’s admin and manager, the super-admin. A parent or the child is 403 (their portal ' +
  'is number-free), as is staff of the organization without that relation; another organization’s or an ' +
  'unknown student is 404 first (tenant before permission).';

/**
 * GET /api/reports/students/{id}/session-results, …/sessions/{kind}/{sessionId} and …/sub-skill-report
 * (docs/reports.md).
 */
export const reportRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { sql } = deps;
    const studentTarget = tenantTarget(sql, { id: 'student' });
    // Tenant before permission, the session included: another organization's session (or one not this
    // child's, or of another kind) is 404 to every caller, before any 403.
    const sessionTarget: TargetCheck = async (request) => {
      await studentTarget(request);
      const { id, kind, sessionId } = request.params as { id: number; kind: DetailKind; sessionId: string };
      await sessionOf(sql, id, kind, sessionId);
    };

    app.get(
      '/reports/students/:id/session-results',
      {
        config: { anyPermission: STAFF_READERS, target: studentTarget },
        schema: {
          tags,
          summary: 'A student’s assessment sessions, newest first, each with its result in short',
          description:
            `${REACH} Every session of the child: digital diagnostic sittings (window and re-diagnostic), oral ` +
            'readings and word-list reads, open ones included, with kind, window, academic year, when, status and ' +
            'a short result (digital: each measure’s raw, max and level scored with the pinned cuts, and the ' +
            'comprehension composite; each digital measure also carries trainingLevel, as in the detail; oral ' +
            'reading and word list: wcpm, accuracy, band, rateCut, provisional). ' +
            'A voided session is out of every read, so it is left out unless includeVoided=true, which lists it ' +
            'marked with its void (id void:<int>, reason, at). Filters: academicYear, window, kind. Cursor ' +
            `pagination: pass nextCursor as cursor; limit defaults to ${RESULTS_PAGE_DEFAULT}, at most ` +
            `${RESULTS_PAGE_MAX}. A cursor that is not one of ours is 422 VALIDATION_ERROR reason invalid_cursor.`,
          security,
          params: StudentParams,
          querystring: ResultsQuery,
          response: { 200: SessionResultsResponse, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        const studentId = request.params.id;
        await requireStaffReach(sql, callerOf(request), studentId);
        const { cursor, limit, includeVoided, ...filter } = request.query;
        const after = cursor === undefined ? null : decodeCursor(cursor);
        if (cursor !== undefined && after === null) {
          throw unprocessable('invalid_cursor', 'cursor is not a nextCursor of this list', [
            { field: 'cursor', issue: 'unknown cursor' },
          ]);
        }
        return sessionResults(
          sql,
          studentId,
          { ...filter, includeVoided: includeVoided ?? false },
          { limit: limit ?? RESULTS_PAGE_DEFAULT, after },
        );
      },
    );

    app.get(
      '/reports/students/:id/sessions/:kind/:sessionId',
      {
        config: { anyPermission: STAFF_READERS, target: sessionTarget },
        schema: {
          tags,
          summary: 'One assessment session of a student in detail',
          description:
            `${REACH} The session must be the child’s and of the kind named, else 404 like an unknown id (before ` +
            'any 403). ' +
            'digital_sitting: measures (MeasureResult[] with the pinned cut version; trainingLevel { source: screen, ' +
            'number } is the measure’s skill’s training level of that academic year, seeded from the screen by ' +
            'rule TLS-01, null without a seed), composite (MeasureComposite, ' +
            'informational) and itemReview (MeasureItemReview[]: position, pattern, skill, correct, the child’s ' +
            'answer; never question text or the correct option). oral_text: the marks, their summary and the ' +
            'scores. oral_word_list: the counts and scores. Scores come from the stored raw counts with the ' +
            'versions pinned when the session was scored. training_day: a day of practice (an id from the training-sessions list), its trainingGroups: the answers grouped by target (targetSkillId, targetLabelAr, levelNameAr), then by role (ordinary, retry, support, exit) with labelAr, answered, correct; trainingGroups is null for every other kind. A voided ' +
            'session is still read here, marked with its void.',
          security,
          params: SessionParams,
          response: { 200: SessionDetailResponse, ...errorResponses(400, 401, 403, 404, 422, 503) },
        },
      },
      async (request) => {
        const { id, kind, sessionId } = request.params;
        // Callers holding a reader permission reach here without the target having run.
        await sessionTarget(request);
        await requireStaffReach(sql, callerOf(request), id);
        return sessionDetail(deps, id, kind, sessionId);
      },
    );

    app.get(
      '/reports/students/:id/sub-skill-report',
      {
        config: { anyPermission: STAFF_READERS, target: studentTarget },
        schema: {
          tags,
          summary: 'A student’s sub-skills for one screening window: status, rules, evidence and sessions',
          description:
            `${REACH} One row per sub-skill the window’s evidence covers (catalog order), from the decisions ` +
            'context’s skill status: status (beginning | developing | on_track | strong), adrRuleId and ssrRuleId ' +
            '(nullable), doNotDecideYet with safeStop do_not_decide_yet and holdReason (insufficient_evidence, ' +
            'split_evidence, or not_assessed: the no-evidence row when every attempt of the window was voided, ' +
            'both rule ids null), the pinned ruleSetVersion, the decision id, the evidence summary, the sessions ' +
            'the decision rests on (kind and sessionId, for the session detail route) and trainingLevel (the ' +
            'skill’s training level of that year: its screen seed, rule TLS-01; null without one). Query window (and academicYear) chooses the window; without them the newest ' +
            'window with decisions; nothing decided yet: window null and rows []. Writes nothing.',
          security,
          params: StudentParams,
          querystring: SubSkillReportQuery,
          response: { 200: SubSkillReportResponse, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        await requireStaffReach(sql, callerOf(request), request.params.id);
        return subSkillReport(sql, request.params.id, request.query);
      },
    );
  };
