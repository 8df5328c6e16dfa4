import { authenticated, type MatrixContext, type MatrixRow, MISSING, type Target } from '../matrixTypes';
import { classFor } from './identityCore';

// Class targets (classFor): own is the teacher's class in the principal's school; sameOrg the other
// teacher's class in the other school.

const all: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];

/** own: the teacher (teaching in the principal's school); sameOrg: the other teacher (the other school only). */
async function teacherFor(ctx: MatrixContext, target: Target): Promise<number> {
  if (target === 'own') return ctx.world.a.teacherId;
  if (target === 'otherOrg') return ctx.world.b.teacherId;
  if (target === 'missing') return MISSING.user;
  const res = await ctx.t.app.inject({
    method: 'GET',
    url: `/api/classes/${ctx.world.a.otherClassId}/teachers`,
    headers: { authorization: `Bearer ${ctx.world.superToken}` },
  });
  const [other] = res.json() as { teacherUserId: number }[];
  if (!other) throw new Error(`fixture: no teacher of the other class: ${res.body}`);
  return other.teacherUserId;
}

/** own: the principal's school; sameOrg: the organization's other school. */
const schoolFor = ({ world }: MatrixContext, target: Target) =>
  target === 'own'
    ? world.a.schoolId
    : target === 'sameOrg'
      ? world.a.otherSchoolId
      : target === 'otherOrg'
        ? world.b.schoolId
        : MISSING.school;

/*
 * Student tokens: 403 on every leaderboard route, whatever the target (spec, Authentication 11). Personas
 * whose permission set covers no board of the kind (parent, manager; a teacher on the school board): 403
 * in their organization, 404 elsewhere. Personas that see boards of the kind but not this one (another
 * teacher's class or board, another school): 404.
 */
const studentRefused = { student: 403 };
const noBoard = { own: 403, sameOrg: 403, otherOrg: 404, missing: 404 };
const super200 = { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 };
const admin200 = { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 };
const ownOnly = { own: 200, sameOrg: 404, otherOrg: 404, missing: 404 };

export const leaderboardRows: MatrixRow[] = [
  {
    route: 'GET /api/leaderboards/class/{classId}',
    targets: all,
    request: (ctx, target) => ({ url: `/api/leaderboards/class/${classFor(ctx, target)}` }),
    expect: authenticated(noBoard, {
      super: super200,
      admin: admin200,
      teacher: ownOnly,
      principal: ownOnly,
      ...studentRefused,
    }),
  },
  {
    route: 'GET /api/leaderboards/teacher/{teacherUserId}',
    targets: all,
    request: async (ctx, target) => ({ url: `/api/leaderboards/teacher/${await teacherFor(ctx, target)}` }),
    expect: authenticated(noBoard, {
      super: super200,
      admin: admin200,
      teacher: ownOnly,
      principal: ownOnly,
      ...studentRefused,
    }),
  },
  {
    route: 'GET /api/leaderboards/school/{schoolId}',
    targets: all,
    request: (ctx, target) => ({ url: `/api/leaderboards/school/${schoolFor(ctx, target)}` }),
    expect: authenticated(noBoard, {
      super: super200,
      admin: admin200,
      principal: ownOnly,
      ...studentRefused,
    }),
  },
];
