import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readingPassage } from '@qiraa/content';
import { ApiError, errorResponses, notFound, permissionDenied, refusalResponses } from '@qiraa/http-kit';
import { callerOf, reachOr404, requestInput, studentReach, type TargetCheck } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { asUnknownReading, loadOralReading } from '../commands/changeOralReading';
import { markOralReading } from '../commands/markOralReading';
import { servesReading, startOralReading } from '../commands/startOralReading';
import { stopOralReading } from '../commands/stopOralReading';
import { passageInTenant } from '../commands/tenantContent';
import { oralReadingStudent } from '../queries/attemptOwners';
import { oralReadingView } from '../queries/oralReadingView';
import { STAFF_REACH, STAFF_READERS } from '../queries/staffReach';
import { changeOralReadingNote } from '../schemas/docNotes';
import { MarkOrfBody, OralReadingSchema, OrfIdParams, StartOrfBody, StopOrfBody } from '../schemas/orfSchemas';
import { security } from '../schemas/readSchemas';

const tags = ['assessment'];

/** POST /api/orf/assessments and the reading's mark, stop and read (docs/assessment-oral.md). */
export const oralReadingRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { sql } = deps;

    // Tenant before permission: the child, then the passage (another organization's or unknown: 404).
    const startTarget: TargetCheck = async (request) => {
      const { studentId, passageId } = requestInput(request) as { studentId?: number; passageId?: string };
      if (studentId !== undefined) await reachOr404(sql, request, 'student', studentId);
      if (passageId !== undefined) await passageInTenant(sql, callerOf(request), passageId);
    };
    // The reading's child must be of the caller's organization (an unknown reading: 404).
    const readingTarget: TargetCheck = async (request) => {
      const { id } = request.params as { id: string };
      const studentId = await oralReadingStudent(sql, id);
      // Another organization's reading answers exactly like an unknown one.
      if (studentId === undefined) throw notFound('oral reading');
      await reachOr404(sql, request, 'student', studentId).catch((error: unknown) => {
        throw error instanceof ApiError && error.status === 404 ? notFound('oral reading') : error;
      });
    };
    const passageOf = async (state: { started: { passageId: string; organizationId: string } }) => {
      const passage = await readingPassage(sql, state.started.passageId);
      return passage && servesReading(passage, state.started.organizationId) ? passage : null;
    };

    app.post(
      '/orf/assessments',
      {
        config: { anyPermission: ['RECORD_TEACHER_ACTION'], target: startTarget, strictBody: true },
        schema: {
          tags,
          summary: 'Start an oral reading (ORF) of a passage with a child',
          description:
            'A teacher of one of the child’s active classes with RECORD_TEACHER_ACTION sits with the child; every ' +
            'other caller of the organization is 403 (staff read a reading, they do not record it). An unknown ' +
            'child or passage, or another organization’s, is 404; a passage not operational is 404. Appends ' +
            '`OralReadingStarted` (the attempt header with the window open now, the passage version and the ' +
            'reading time, 60 s) to `orf-<id>`. 422 `passage_grade_mismatch` when the passage is not of the ' +
            'class’s grade; 409 `no_open_window` when no screening window is open for the class’s academic year.',
          security,
          body: StartOrfBody,
          response: {
            201: OralReadingSchema,
            ...errorResponses(400, 401, 403, 404, 409, 422),
            ...refusalResponses({ 409: ['no_open_window'], 422: ['passage_grade_mismatch'] }),
          },
        },
      },
      async (request, reply) => {
        const state = await startOralReading(deps, callerOf(request), request.body, { now: deps.clock.now() });
        reply.code(201);
        return oralReadingView(sql, state, state.passage);
      },
    );

    app.post(
      '/orf/assessments/:id/mark',
      {
        config: { anyPermission: ['RECORD_TEACHER_ACTION'], target: readingTarget, strictBody: true },
        schema: {
          tags,
          summary: 'Mark one word of an open oral reading',
          description:
            `Body { wordIndex (0-based), mark: error | self_correction | clear }; the word’s latest mark counts. ${changeOralReadingNote} ` +
            '422 `orf_word_out_of_range` when wordIndex is not a word of the passage.',
          security,
          params: OrfIdParams,
          body: MarkOrfBody,
          response: { 200: OralReadingSchema, ...errorResponses(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const state = await markOralReading(deps, callerOf(request), request.params.id, request.body, {
          now: deps.clock.now(),
        });
        return oralReadingView(sql, state, await passageOf(state));
      },
    );

    app.post(
      '/orf/assessments/:id/stop',
      {
        config: { anyPermission: ['RECORD_TEACHER_ACTION'], target: readingTarget, strictBody: true },
        schema: {
          tags,
          summary: 'Stop an oral reading and score it',
          description:
            `Body { lastWordIndex (0-based), elapsedSeconds (1 up to the reading time) }. ${changeOralReadingNote} ` +
            'Timed-grid rules: attempted = lastWordIndex + 1, marks past it are dropped, errors = words up to it ' +
            'whose latest mark is error, WCPM over the actual seconds, accuracy = correct / attempted; banded ' +
            'with the organization’s (else the global) read-cut table, whose version is pinned. rateCut is always ' +
            'set. 422 `orf_last_word_out_of_range` (past the passage), `orf_elapsed_out_of_range` (0, or over the ' +
            'reading time). Appends `OralReadingStopped` with the raw counts; nothing is written on a refusal. 503 ' +
            'ENGINE_UNAVAILABLE when the read-cut table cannot be read.',
          security,
          params: OrfIdParams,
          body: StopOrfBody,
          response: { 200: OralReadingSchema, ...errorResponses(400, 401, 403, 404, 409, 422, 503) },
        },
      },
      async (request) => {
        const state = await stopOralReading(deps, callerOf(request), request.params.id, request.body, {
          now: deps.clock.now(),
        });
        return oralReadingView(sql, state, await passageOf(state));
      },
    );

    app.get(
      '/orf/assessments/:id',
      {
        config: { anyPermission: STAFF_READERS, target: readingTarget },
        schema: {
          tags,
          summary: 'An oral reading: its marks and, once stopped, its counts and bands',
          description:
            'Staff who reach the child: a teacher of one of the child’s classes, the school’s principal, the ' +
            'organization’s admin and manager, the super-admin; a parent, a student or another teacher is 403. ' +
            'Another organization’s or an unknown reading is 404. Scores are derived from the stored raw counts ' +
            'with the pinned cut table; rateCut, the bands and provisional are null until the stop. A voided ' +
            'reading answers with voided: true.',
          security,
          params: OrfIdParams,
          response: { 200: OralReadingSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const state = await loadOralReading(deps.store, request.params.id);
        const reached = await studentReach(sql, caller, state.started.studentId).catch(asUnknownReading);
        if (!reached.reach || !STAFF_REACH.includes(reached.reach))
          throw permissionDenied('staff who reach the child read it');
        return oralReadingView(sql, state, await passageOf(state));
      },
    );
  };
