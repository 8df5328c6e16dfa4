import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Sql } from '@qiraa/db';
import { BigintId, errorResponses, notFound, permissionDenied } from '@qiraa/http-kit';
import {
  type Caller,
  callerOf,
  classPlacement,
  holds,
  inOrganizationOr404,
  schoolOrganization,
  teacherPlacement,
} from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { MASTERY_EVENT_SOURCE_KINDS } from '../codes';
import { classLeaderboard } from '../queries/leaderboardClass';
import {
  LEADERBOARD_VIEWS,
  LEADERBOARD_WINDOW_DAYS,
  type LeaderboardEntry,
  type LeaderboardParams,
  type LeaderboardView,
  type SourceKindBreakdown,
} from '../queries/leaderboardEntries';
import { filteredFraming } from '../queries/leaderboardFraming';
import { schoolLeaderboard } from '../queries/leaderboardSchool';
import { teacherLeaderboard } from '../queries/leaderboardTeacher';

const security = [{ bearerAuth: [] }];
const tags = ['gamification'];

const ClassParams = Type.Object({ classId: Type.String({ pattern: '^cls_[A-Za-z0-9]{12}$' }) });
const TeacherParams = Type.Object({ teacherUserId: BigintId });
const SchoolParams = Type.Object({ schoolId: Type.String({ pattern: '^sch_[A-Za-z0-9]{12}$' }) });

const View = Type.Unsafe<LeaderboardView>(Type.String({ enum: [...LEADERBOARD_VIEWS] }));

const LeaderboardQuery = Type.Object({
  view: Type.Optional(
    Type.Unsafe<LeaderboardView>(
      Type.String({ enum: [...LEADERBOARD_VIEWS], default: 'by_mastery_events', description: 'order of the entries' }),
    ),
  ),
  windowDays: Type.Optional(
    Type.Integer({
      minimum: LEADERBOARD_WINDOW_DAYS.min,
      maximum: LEADERBOARD_WINDOW_DAYS.max,
      default: LEADERBOARD_WINDOW_DAYS.default,
      description: 'the last N school days up to today in the organization’s time zone; outside 1-90: 422',
    }),
  ),
});

const SourceKindBreakdownSchema = Type.Unsafe<SourceKindBreakdown>({
  type: 'object',
  description: 'source kind → its mastery events in the window; a kind without any is left out',
  properties: Object.fromEntries(MASTERY_EVENT_SOURCE_KINDS.map((kind) => [kind, { type: 'integer', minimum: 1 }])),
  additionalProperties: false,
});

const Entry = Type.Object({
  studentId: Type.Integer(),
  masteryEventCount: Type.Integer({ minimum: 0, description: 'mastery events in the window (every source kind)' }),
  bandProgressionCount: Type.Integer({ minimum: 0, description: 'band_progression mastery events in the window' }),
  sourceKindBreakdown: SourceKindBreakdownSchema,
});

const boardFields = {
  view: View,
  windowDays: Type.Integer(),
  framing: Type.Object({ topLabelAr: Type.String(), bottomLabelAr: Type.String() }),
  entries: Type.Array(Entry, {
    description: 'every active student of the scope (zero counts included), by the view’s count desc, then studentId',
  }),
};

const ClassLeaderboard = Type.Object({ scope: Type.Literal('class'), ...boardFields });
const SchoolLeaderboard = Type.Object({ scope: Type.Literal('school'), ...boardFields });
const TeacherLeaderboard = Type.Object({
  scope: Type.Literal('teacher'),
  ...boardFields,
  classes: Type.Array(
    Type.Object({
      classId: Type.String(),
      masteryEventCount: Type.Integer({ minimum: 0 }),
      bandProgressionCount: Type.Integer({ minimum: 0 }),
    }),
    { description: 'per-class totals over each class’s own active students, by classId (code-point order)' },
  ),
});

const paramsOf = (query: { view?: LeaderboardView; windowDays?: number }): LeaderboardParams => ({
  view: query.view ?? 'by_mastery_events',
  windowDays: query.windowDays ?? LEADERBOARD_WINDOW_DAYS.default,
});

const board = async <S extends 'class' | 'teacher' | 'school'>(
  sql: Sql,
  scope: S,
  params: LeaderboardParams,
  entries: LeaderboardEntry[],
) => ({ scope, ...params, framing: await filteredFraming(sql, params.view), entries });

/*
 * Access (spec: Gamification endpoints, Authentication 11). Order: a student token is refused before
 * anything is looked up; then the tenant rule (missing or another organization: 404); then a persona whose
 * permission set covers no board of this kind gets 403; a persona that may see boards of this kind but not
 * this one (another teacher's class, another school) gets 404, as the spec's "another teacher's class 404".
 */

async function classBoardScope(sql: Sql, caller: Caller, classId: string) {
  const cls = await classPlacement(sql, classId, caller.userId);
  inOrganizationOr404(caller, cls?.organizationId, 'class');
  const scope = { classId, organizationId: cls!.organizationId };
  if (holds(caller, 'MANAGE_ORG')) return scope;
  if (holds(caller, 'VIEW_OWN_CLASSES')) {
    if (cls!.teaches) return scope;
    throw notFound('class');
  }
  if (holds(caller, 'VIEW_SCHOOL')) {
    if (caller.schoolId === cls!.schoolId) return scope;
    throw notFound('class');
  }
  throw permissionDenied();
}

async function teacherBoardScope(sql: Sql, caller: Caller, teacherUserId: number) {
  const teacher = await teacherPlacement(sql, teacherUserId, caller.schoolId);
  inOrganizationOr404(caller, teacher?.organizationId, 'teacher');
  const organizationId = teacher!.organizationId;
  if (holds(caller, 'MANAGE_ORG')) return { teacherUserId, organizationId, schoolId: null };
  if (holds(caller, 'VIEW_OWN_CLASSES')) {
    if (caller.userId === teacherUserId) return { teacherUserId, organizationId, schoolId: null };
    throw notFound('teacher');
  }
  if (holds(caller, 'VIEW_SCHOOL')) {
    // The principal sees the roll-up of the teacher's classes in their own school only.
    if (teacher!.teachesInSchool) return { teacherUserId, organizationId, schoolId: caller.schoolId };
    throw notFound('teacher');
  }
  throw permissionDenied();
}

async function schoolBoardScope(sql: Sql, caller: Caller, schoolId: string) {
  const organizationId = await schoolOrganization(sql, schoolId);
  inOrganizationOr404(caller, organizationId, 'school');
  const scope = { schoolId, organizationId: organizationId! };
  if (holds(caller, 'MANAGE_ORG')) return scope;
  if (holds(caller, 'VIEW_SCHOOL')) {
    if (caller.schoolId === schoolId) return scope;
    throw notFound('school');
  }
  throw permissionDenied();
}

/**
 * GET /api/leaderboards/{class|teacher|school}/…: adult-only boards counted from mastery events
 * (gam_mastery_events) in a window of school days, never from XP or engagement counters.
 */
export const leaderboardRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Spec, Authentication 11: student tokens receive 403 on every leaderboard route (before validation too).
    app.addHook('preValidation', async (request) => {
      if (callerOf(request).persona === 'STUDENT') throw permissionDenied('leaderboards are for adults only');
    });

    const errors = errorResponses(401, 403, 404, 422, 503);

    app.get(
      '/leaderboards/class/:classId',
      {
        schema: {
          tags,
          summary: 'Class leaderboard: mastery events of the class’s students in a window of school days',
          description:
            'A teacher of the class, the principal of its school, an organization admin. Student token: 403; ' +
            'parent or manager: 403; another teacher’s class, another school’s class (principal), another ' +
            'organization or a missing class: 404.',
          security,
          params: ClassParams,
          querystring: LeaderboardQuery,
          response: { 200: ClassLeaderboard, ...errors },
        },
      },
      async (request) => {
        const scope = await classBoardScope(deps.sql, callerOf(request), request.params.classId);
        const params = paramsOf(request.query);
        return board(deps.sql, 'class', params, await classLeaderboard(deps.sql, scope, params, deps.clock.now()));
      },
    );

    app.get(
      '/leaderboards/teacher/:teacherUserId',
      {
        schema: {
          tags,
          summary: 'Teacher leaderboard: roll-up of all the teacher’s classes, with per-class totals',
          description:
            'The teacher themself, an organization admin, or the principal of a school the teacher teaches in ' +
            '(who sees the teacher’s classes of that school only). Student token: 403; parent or manager: 403; ' +
            'another teacher, a principal of a school the teacher does not teach in, another organization or ' +
            'a user who is not a teacher: 404.',
          security,
          params: TeacherParams,
          querystring: LeaderboardQuery,
          response: { 200: TeacherLeaderboard, ...errors },
        },
      },
      async (request) => {
        const scope = await teacherBoardScope(deps.sql, callerOf(request), request.params.teacherUserId);
        const params = paramsOf(request.query);
        const { entries, classes } = await teacherLeaderboard(deps.sql, scope, params, deps.clock.now());
        return { ...(await board(deps.sql, 'teacher', params, entries)), classes };
      },
    );

    app.get(
      '/leaderboards/school/:schoolId',
      {
        schema: {
          tags,
          summary: 'School leaderboard: mastery events of the school’s students in a window of school days',
          description:
            'The principal of the school or an organization admin only. Teacher, parent, manager or student ' +
            'token: 403; another school’s principal, another organization or a missing school: 404.',
          security,
          params: SchoolParams,
          querystring: LeaderboardQuery,
          response: { 200: SchoolLeaderboard, ...errors },
        },
      },
      async (request) => {
        const scope = await schoolBoardScope(deps.sql, callerOf(request), request.params.schoolId);
        const params = paramsOf(request.query);
        return board(deps.sql, 'school', params, await schoolLeaderboard(deps.sql, scope, params, deps.clock.now()));
      },
    );
  };
