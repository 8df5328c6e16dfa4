import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, notFound, permissionDenied } from '@qiraa/http-kit';
import { callerOf, holds, type Permission, reachOr404 } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { trainingDayOf, trainingDaysOf } from '../queries/trainingDays';
import { trainingLevelsOf } from '../queries/trainingLevelsOf';
import { trainingReach } from '../queries/trainingReach';
import {
  DayParams,
  StudentIdParams,
  security,
  TrainingDayResponse,
  TrainingDaysResponse,
  TrainingLevelsResponse,
} from '../schemas';

const tags = ['training'];

const LEVEL_READERS: readonly Permission[] = ['VIEW_OWN_CLASSES', 'RUN_BACKOFFICE'];
const DAY_READERS: readonly Permission[] = [
  'SUPER_ADMIN',
  'MANAGE_ORG',
  'VIEW_OWN_CLASSES',
  'VIEW_SCHOOL',
  'VIEW_ORGANIZATION',
];

/** GET levels and the training-day views of a child (docs/training.md). */
export const staffRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { sql } = deps;
    const studentTarget = async (request: Parameters<typeof callerOf>[0]) =>
      reachOr404(sql, request, 'student', (request.params as { studentId: number }).studentId);

    app.get(
      '/training/students/:studentId/levels',
      {
        config: { anyPermission: LEVEL_READERS, target: studentTarget },
        schema: {
          tags,
          summary: 'A child’s training level per skill',
          description:
            'Returns { studentId, academicYear, levels } for the newest academic year with levels: per skill ' +
            'skillId, skillLabelAr, measureCode, level { number, nameAr } (catalog training_level), since (school ' +
            'day), startedFrom (screen | experience_type | backtrack), lastMove { direction up | down | rebaseline, ' +
            'at, fromLevel } or null, openAlerts[]. Until leveled training started: levels [] and academicYear the current one (the ' +
            'academic year of today’s school day in the organization’s time zone, turning on 1 August). ' +
            'VIEW_OWN_CLASSES or RUN_BACKOFFICE, else 403; a child the caller does not reach (not taught, not in a ' +
            'support group the teacher owns) or of another organization: 404.',
          security,
          params: StudentIdParams,
          response: { 200: TrainingLevelsResponse, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        if (!holds(caller, 'VIEW_OWN_CLASSES') && !holds(caller, 'RUN_BACKOFFICE')) {
          throw permissionDenied('VIEW_OWN_CLASSES or RUN_BACKOFFICE reads training levels');
        }
        if (!(await trainingReach(sql, caller, request.params.studentId))) throw notFound('student');
        return {
          studentId: request.params.studentId,
          ...(await trainingLevelsOf(sql, request.params.studentId, deps.clock.now())),
        };
      },
    );

    const reachOr403 = async (request: Parameters<typeof callerOf>[0], studentId: number) => {
      if (!(await trainingReach(sql, callerOf(request), studentId))) {
        throw permissionDenied('the child’s teacher, a support group’s owner or organization staff read training days');
      }
    };

    app.get(
      '/practice/students/:studentId/training-sessions',
      {
        config: { anyPermission: DAY_READERS, target: studentTarget },
        schema: {
          tags,
          summary: 'A child’s training days, newest first',
          description:
            'Reach: a teacher of one of the child’s classes, the owner of a support group holding the child, or ' +
            'staff organization-wide (admin, manager, the school’s principal, super-admin). Another organization’s ' +
            'or an unknown child: 404; a child of the organization the caller does not reach: 403. Each day: id, ' +
            'date, timeZone, leveled, ended, endReason, counted, correct, targets (skillId, skillLabelAr, ' +
            'levelNumber, levelNameAr), supportSteps (count), exitDone, answeredCount (the last four null for a ' +
            'day opened before training levels). At most 200 days.',
          security,
          params: StudentIdParams,
          response: { 200: TrainingDaysResponse, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        await reachOr403(request, request.params.studentId);
        return trainingDaysOf(sql, request.params.studentId);
      },
    );

    app.get(
      '/practice/students/:studentId/training-sessions/:trainingSessionId',
      {
        config: { anyPermission: DAY_READERS, target: studentTarget },
        schema: {
          tags,
          summary: 'One training day of a child',
          description:
            'Reach as the list. id, date, timeZone, leveled, plannedExercises, questionsPerExercise, targets[] ' +
            '{ questionsAnswered, firstTryCorrect, secondTries, hintedAnswers, supportAnswers }, supportSteps[] ' +
            '{ id, target, level, supportSkills, firedAt, answered, correct } oldest first, exit { planned, ' +
            'answered, correct } or null, ended, endReason (done | cap | window_closed | null while open), ' +
            'feedback, feedbackAt. An unknown day or another child’s day: 404; a non-uuid id: 422.',
          security,
          params: DayParams,
          response: { 200: TrainingDayResponse, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        await reachOr403(request, request.params.studentId);
        const day = await trainingDayOf(sql, request.params.studentId, request.params.trainingSessionId);
        if (!day) throw notFound('training session');
        return day;
      },
    );
  };
