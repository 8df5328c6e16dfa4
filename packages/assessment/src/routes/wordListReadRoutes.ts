import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, refusalResponses } from '@qiraa/http-kit';
import { callerOf, reachOr404, requestInput, type TargetCheck } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { recordWordListRead } from '../commands/recordWordListRead';
import { wordListInTenant } from '../commands/tenantContent';
import { STAFF_READERS } from '../queries/staffReach';
import { teacherWordLists } from '../queries/teacherWordLists';
import { security } from '../schemas/readSchemas';
import {
  TeacherWordListsSchema,
  WordListReadBody,
  WordListReadSchema,
  WordListsQuery,
} from '../schemas/wordListReadSchemas';

const tags = ['assessment'];

/** GET /api/word-lists (the teacher's view) and POST /api/word-lists/assessments (docs/assessment-oral.md). */
export const wordListReadRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { sql } = deps;
    const studentTarget: TargetCheck = async (request) => {
      const { studentId } = requestInput(request) as { studentId?: number };
      if (studentId !== undefined) await reachOr404(sql, request, 'student', studentId);
    };
    // Tenant before permission: the child, then the list (another organization's or unknown: 404).
    const readTarget: TargetCheck = async (request) => {
      await studentTarget(request);
      const { wordListId } = requestInput(request) as { wordListId?: string };
      if (wordListId !== undefined) await wordListInTenant(sql, callerOf(request), wordListId);
    };

    app.get(
      '/word-lists',
      {
        config: { anyPermission: STAFF_READERS, target: studentTarget },
        schema: {
          tags,
          summary: 'Word lists a teacher assesses with (the teacher view)',
          description:
            'Staff (teacher, principal, admin, manager, super-admin); a parent or a student is 403. Without ' +
            'studentId: every operational list of the caller’s organization (its schools’ lists too) and the ' +
            'global ones. With studentId: the lists of the child’s class grade served at the child’s school in ' +
            'the child’s window (the open one, else the page’s default window): window lists first, then ' +
            'all-window lists. An unknown child or another organization’s is 404; a child the caller does not ' +
            'reach (another teacher’s, another school’s for a principal) is 403. Each list carries timing ' +
            '{ timed, durationSeconds }, wordsPerRow (5 when the list names none) and assessmentWindow.',
          security,
          querystring: WordListsQuery,
          response: { 200: TeacherWordListsSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => teacherWordLists(sql, callerOf(request), request.query.studentId, deps.clock.now()),
    );

    app.post(
      '/word-lists/assessments',
      {
        config: { anyPermission: ['RECORD_TEACHER_ACTION'], target: readTarget, strictBody: true },
        schema: {
          tags,
          summary: 'Record a word-list read (the teacher sat with the child)',
          description:
            'A teacher of one of the child’s active classes with RECORD_TEACHER_ACTION; other callers of the ' +
            'organization 403; an unknown child or list, another organization’s, a list not operational or not ' +
            'served at the child’s school: 404. Timed list: the body takes last_word_index (0-based) and ' +
            'elapsed_seconds (1 up to the list’s duration, 60 s unless the list names another); attempted = ' +
            'last_word_index + 1, errorIndices past it are dropped, WCPM over the actual seconds. Untimed list: ' +
            'every word is attempted and last_word_index or elapsed_seconds is refused. 422 reasons, checked in ' +
            'this order: word_list_grade_mismatch (the list is not of the class grade), ' +
            'word_list_window_mismatch (a window list outside the open window), word_list_timing_required, ' +
            'word_list_last_word_out_of_range, word_list_elapsed_exceeds_duration, word_list_not_timed. 409 ' +
            '`no_open_window` between windows. Nothing is written on a refusal. Appends one WordListRead (raw ' +
            'counts, pinned cut version) to wlread-<id> and counts the list’s use (assessmentsCount). band is ' +
            'null with skippedReason not_banded when the cut table is empty.',
          security,
          body: WordListReadBody,
          response: {
            201: WordListReadSchema,
            ...errorResponses(400, 401, 403, 404, 409, 422, 503),
            ...refusalResponses({ 409: ['no_open_window'] }),
          },
        },
      },
      async (request, reply) => {
        const read = await recordWordListRead(deps, callerOf(request), request.body, { now: deps.clock.now() });
        reply.code(201);
        return read;
      },
    );
  };
