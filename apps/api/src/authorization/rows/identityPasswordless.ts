import { authenticated, everyone, type MatrixContext, type MatrixRow, MISSING, type Target } from '../matrixTypes';

/** own: the student of the teacher's class (the parent's child); sameOrg: a fresh student of the other school. */
async function studentFor(ctx: MatrixContext, target: Target): Promise<number> {
  if (target === 'own') return ctx.world.a.studentId;
  if (target === 'otherOrg') return ctx.world.b.studentId;
  if (target === 'missing') return MISSING.user;
  const res = await ctx.t.app.inject({
    method: 'POST',
    url: `/api/classes/${ctx.world.a.otherClassId}/students`,
    payload: { fullNameAr: 'طالب' },
    headers: { authorization: `Bearer ${ctx.world.superToken}` },
  });
  return res.json().studentId;
}

async function freshHandoffCode(ctx: MatrixContext): Promise<string> {
  const res = await ctx.t.app.inject({
    method: 'POST',
    url: '/api/auth/handoff-codes',
    payload: { studentId: ctx.world.a.studentId },
    headers: { authorization: `Bearer ${ctx.world.a.teacherToken}` },
  });
  return res.json().code;
}

const studentTargets: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];
const refused = { own: 403, sameOrg: 403, otherOrg: 404, missing: 404 };

/** Passwordless sign-in (docs/identity-passwordless.md): handoff codes, passkeys, school sign-in. */
export const identityPasswordlessRows: MatrixRow[] = [
  {
    route: 'POST /api/auth/handoff-codes',
    // none: the caller's own session (no studentId); the other targets name a student.
    targets: ['none', ...studentTargets],
    request: async (ctx, target) => ({
      url: '/api/auth/handoff-codes',
      body: target === 'none' ? {} : { studentId: await studentFor(ctx, target) },
    }),
    // The class teacher and the organization admin hand a student over; the student their own session.
    // A super-scope administrator impersonates no child (403 wherever the student is, 404 when none).
    expect: authenticated(
      { none: 201, ...refused },
      {
        super: { none: 201, own: 403, sameOrg: 403, otherOrg: 403, missing: 404 },
        admin: { none: 201, own: 201, sameOrg: 201, otherOrg: 404, missing: 404 },
        teacher: { none: 201, own: 201, sameOrg: 403, otherOrg: 404, missing: 404 },
        student: { none: 201, own: 201, sameOrg: 403, otherOrg: 404, missing: 404 },
      },
    ),
  },
  {
    route: 'POST /api/auth/handoff-codes/redeem',
    targets: ['none'],
    request: async (ctx) => ({ url: '/api/auth/handoff-codes/redeem', body: { code: await freshHandoffCode(ctx) } }),
    expect: everyone(200),
  },
];
