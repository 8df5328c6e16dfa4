import type { World } from '@qiraa/app/testing';
import { authenticated, type MatrixContext, type MatrixRow, MISSING, REFUSED, type Target } from '../matrixTypes';

/** Once per world: a student of the other teacher's class (organization A), the sameOrg target. */
const sameOrgStudents = new WeakMap<World, Promise<number>>();
function sameOrgStudent(ctx: MatrixContext): Promise<number> {
  let found = sameOrgStudents.get(ctx.world);
  if (!found) {
    found = (async () => {
      const res = await ctx.t.app.inject({
        method: 'POST',
        url: '/api/users',
        payload: { primaryPersona: 'STUDENT', fullNameAr: 'طالب', classId: ctx.world.a.otherClassId },
        headers: { authorization: `Bearer ${ctx.world.superToken}` },
      });
      if (res.statusCode !== 201) throw new Error(`fixture student: ${res.statusCode} ${res.body}`);
      return res.json().id as number;
    })();
    sameOrgStudents.set(ctx.world, found);
  }
  return found;
}

async function studentOf(ctx: MatrixContext, target: Target): Promise<number> {
  if (target === 'own') return ctx.world.a.studentId;
  if (target === 'sameOrg') return sameOrgStudent(ctx);
  if (target === 'otherOrg') return ctx.world.b.studentId;
  return MISSING.user;
}

/**
 * Decisions (packages/decisions, docs/decisions.md): a child's skill status is read by staff who reach the
 * child (teacher of its class, the school's principal, admin, manager, super); a parent or the child is 403.
 */
export const decisionRows: MatrixRow[] = [
  {
    route: 'GET /api/sse/students/{id}/skill-status',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: async (ctx, target) => ({ url: `/api/sse/students/${await studentOf(ctx, target)}/skill-status` }),
    expect: authenticated(REFUSED, {
      super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
      admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
      teacher: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
      principal: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
      manager: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
    }),
  },
  {
    route: 'POST /api/admin/decisions/replay',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: async (ctx, target) => ({
      url: '/api/admin/decisions/replay',
      body: { studentId: await studentOf(ctx, target) },
    }),
    // RUN_BACKOFFICE, beside the gamification replay: the super admin anywhere, an admin in their organization.
    expect: authenticated(REFUSED, {
      super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
      admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
    }),
  },
];
