import { authenticated, type MatrixContext, type MatrixRow, MISSING, REFUSED, type Target } from '../matrixTypes';
import { classFor } from './identityCore';

async function newStudent(ctx: MatrixContext, classId: string): Promise<number> {
  const res = await ctx.t.app.inject({
    method: 'POST',
    url: '/api/users',
    payload: { primaryPersona: 'STUDENT', fullNameAr: 'طالب', classId },
    headers: { authorization: `Bearer ${ctx.world.superToken}` },
  });
  if (res.statusCode !== 201) throw new Error(`fixture student: ${res.statusCode} ${res.body}`);
  return res.json().id as number;
}

/** A student of the other teacher's class (organization A), created once per world. */
const sameOrg = new WeakMap<object, Promise<number>>();
async function studentOf(ctx: MatrixContext, target: Target): Promise<number> {
  if (target === 'own') return ctx.world.a.studentId;
  if (target === 'otherOrg') return ctx.world.b.studentId;
  if (target !== 'sameOrg') return MISSING.user;
  let found = sameOrg.get(ctx.world);
  if (!found) {
    found = newStudent(ctx, ctx.world.a.otherClassId);
    sameOrg.set(ctx.world, found);
  }
  return found;
}

/**
 * Clusters (packages/clusters, docs/clusters.md). Recompute: the class teacher or RUN_BACKOFFICE. Preview: the
 * child's teacher or an administrator. Bulk activation: the members' teacher only; `own` names a fresh student
 * of the teacher's class with no recommendation, so the teacher's own answer is 422 EXCLUDED_MEMBER (writes
 * nothing).
 */
export const clusterRows: MatrixRow[] = [
  {
    route: 'POST /api/cluster/recompute/{classId}',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: (ctx, target) => ({ url: `/api/cluster/recompute/${classFor(ctx, target)}`, body: {} }),
    expect: authenticated(REFUSED, {
      super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
      admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
      teacher: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
    }),
  },
  {
    route: 'GET /api/cluster/student/{id}/preview',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: async (ctx, target) => ({ url: `/api/cluster/student/${await studentOf(ctx, target)}/preview` }),
    expect: authenticated(REFUSED, {
      super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
      admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
      teacher: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
    }),
  },
  {
    route: 'POST /api/cluster/bulk-activate',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: async (ctx, target) => ({
      url: '/api/cluster/bulk-activate',
      body: {
        clusterKey:
          'bundle_id=bnd_decoding_foundations;anchor_skill_group=decoding;scaffold_tier=MERGE_L1_L2;' +
          'compatible_delivery_mode=teacher_led;sufficient_data=true',
        confirmedMemberStudentIds: [
          target === 'own' ? await newStudent(ctx, ctx.world.a.classId) : await studentOf(ctx, target),
        ],
        memberAdjustments: [],
      },
    }),
    expect: authenticated(REFUSED, {
      super: { own: 403, sameOrg: 403, otherOrg: 403, missing: 404 },
      teacher: { own: 422, sameOrg: 403, otherOrg: 404, missing: 404 },
    }),
  },
];
