import { authenticated, type MatrixContext, type MatrixRow, MISSING, REFUSED, type Target } from '../matrixTypes';

/** The student of each target: a student of the other teacher's class is created once per world. */
const sameOrg = new WeakMap<object, Promise<number>>();
async function studentOf(ctx: MatrixContext, target: Target): Promise<number> {
  if (target === 'own') return ctx.world.a.studentId;
  if (target === 'otherOrg') return ctx.world.b.studentId;
  if (target !== 'sameOrg') return MISSING.user;
  let found = sameOrg.get(ctx.world);
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
    sameOrg.set(ctx.world, found);
  }
  return found;
}

/** A child's context flags (packages/identity/src/commands/contextFlags.ts, docs/identity.md "Context flags"). */
export const contextFlagRows: MatrixRow[] = [
  {
    route: 'GET /api/students/{studentId}/context-flags',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: async (ctx, target) => ({ url: `/api/students/${await studentOf(ctx, target)}/context-flags` }),
    expect: authenticated(REFUSED, {
      super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
      admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
      teacher: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
      principal: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
      manager: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
    }),
  },
  {
    route: 'PUT /api/students/{studentId}/context-flags',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: async (ctx, target) => ({
      url: `/api/students/${await studentOf(ctx, target)}/context-flags`,
      body: { flags: ['new_to_school'] },
    }),
    expect: authenticated(REFUSED, {
      super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
      admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
      teacher: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
    }),
  },
];
