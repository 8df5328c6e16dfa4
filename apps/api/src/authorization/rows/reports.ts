import { randomUUID } from 'node:crypto';
import type { World } from '@qiraa/app/testing';
import { startSitting } from '@qiraa/assessment/testing';
import { authenticated, type MatrixContext, type MatrixRow, MISSING, REFUSED, type Target } from '../matrixTypes';

interface Child {
  studentId: number;
  /** A digital sitting of this child (a missing child's is a random id). */
  sessionId: string;
}

/**
 * Once per world: a digital sitting (written as the sitting commands write it) of A's student, of a student of
 * A's other class (sameOrg: outside the teacher's and the principal's reach) and of B's student.
 */
const fixtures = new WeakMap<World, Promise<Record<Exclude<Target, 'none'>, Child>>>();
function childrenOf(ctx: MatrixContext) {
  let fixture = fixtures.get(ctx.world);
  if (!fixture) {
    fixture = (async () => {
      const { a, b } = ctx.world;
      const deps = { sql: ctx.t.runtime.sql, store: ctx.t.runtime.store };
      const created = await ctx.t.app.inject({
        method: 'POST',
        url: `/api/classes/${a.otherClassId}/students`,
        headers: { authorization: `Bearer ${ctx.world.superToken}` },
        payload: { fullNameAr: 'طالب' },
      });
      if (created.statusCode !== 201) throw new Error(`matrix reports student: ${created.body}`);
      const sameOrgStudentId = created.json().studentId as number;
      const sitting = async (org: World['a'], classId: string, schoolId: string, studentId: number) => ({
        studentId,
        // EOY: never the BOY sitting the sitting rows start and resume.
        sessionId: (await startSitting(deps, { organizationId: org.id, schoolId, classId, studentId, window: 'EOY' }))
          .attemptId,
      });
      return {
        own: await sitting(a, a.classId, a.schoolId, a.studentId),
        sameOrg: await sitting(a, a.otherClassId, a.otherSchoolId, sameOrgStudentId),
        otherOrg: await sitting(b, b.classId, b.schoolId, b.studentId),
        missing: { studentId: MISSING.user, sessionId: randomUUID() },
      };
    })();
    fixtures.set(ctx.world, fixture);
  }
  return fixture;
}

const child = async (ctx: MatrixContext, target: Target) => (await childrenOf(ctx))[target as Exclude<Target, 'none'>];
const children: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];

/** Staff who reach the child (teacher of its class, the school's principal, admin, manager, super); never a parent or the child. */
const staffRead = authenticated(REFUSED, {
  super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
  admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
  teacher: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
  principal: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
  manager: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
});

/** A student's session results and one session's detail (packages/reports, docs/reports.md). */
export const reportRows: MatrixRow[] = [
  {
    route: 'GET /api/reports/students/{id}/session-results',
    targets: children,
    request: async (ctx, target) => ({
      url: `/api/reports/students/${(await child(ctx, target)).studentId}/session-results`,
    }),
    expect: staffRead,
  },
  {
    route: 'GET /api/reports/students/{id}/sessions/{kind}/{sessionId}',
    targets: children,
    request: async (ctx, target) => {
      const { studentId, sessionId } = await child(ctx, target);
      return { url: `/api/reports/students/${studentId}/sessions/digital_sitting/${sessionId}` };
    },
    expect: staffRead,
  },
  {
    route: 'GET /api/reports/students/{id}/sub-skill-report',
    targets: children,
    request: async (ctx, target) => ({
      url: `/api/reports/students/${(await child(ctx, target)).studentId}/sub-skill-report`,
    }),
    expect: staffRead,
  },
];
