import { startSitting } from '@qiraa/assessment/testing';
import { authenticated, type MatrixContext, type MatrixRow, MISSING, REFUSED, type Target } from '../matrixTypes';

const orgFor = ({ world }: MatrixContext, target: Target) =>
  target === 'own' ? world.a.id : target === 'otherOrg' ? world.b.id : MISSING.org;

const classFor = ({ world }: MatrixContext, target: Target) =>
  target === 'own'
    ? world.a.classId
    : target === 'sameOrg'
      ? world.a.otherClassId
      : target === 'otherOrg'
        ? world.b.classId
        : MISSING.class;

/**
 * A fresh open digital sitting in the target's class (missing: in A's class, the class itself is missing). In
 * EOY, not the BOY the sitting rows open: the callers refused here leave their sitting open, and a BOY one
 * would be what the sitting rows' start resumes (its fixture items are no served question).
 */
async function freshSitting(ctx: MatrixContext, target: Target): Promise<string> {
  const org = target === 'otherOrg' ? ctx.world.b : ctx.world.a;
  const classId = target === 'missing' ? org.classId : classFor(ctx, target);
  const [cls] = await ctx.t.runtime.sql<{ school_id: string }[]>`select school_id from classes where id = ${classId}`;
  const sitting = await startSitting(
    { sql: ctx.t.runtime.sql, store: ctx.t.runtime.store },
    { organizationId: org.id, schoolId: cls!.school_id, classId, studentId: org.studentId, window: 'EOY' },
  );
  return sitting.attemptId;
}

// Years far ahead: every window lies in the future, so each can be opened by hand.
const CALENDAR_YEAR = '2032-2033';
const HAND_YEAR = '2040-2041';

/** Puts the target organization's HAND_YEAR BOY window in the state the request needs (open or not). */
async function handWindow(ctx: MatrixContext, target: Target, open: boolean) {
  const organizationId = orgFor(ctx, target);
  if (target === 'missing') return organizationId;
  const sql = ctx.t.runtime.sql;
  await sql`delete from asm_window_overrides
            where organization_id = ${organizationId} and academic_year = ${HAND_YEAR}`;
  if (open)
    await sql`insert into asm_window_overrides (organization_id, academic_year, evidence_window, opened_at)
              values (${organizationId}, ${HAND_YEAR}, 'BOY', now() - interval '1 minute')`;
  return organizationId;
}

const orgTargets: Target[] = ['own', 'otherOrg', 'missing'];

/** Window administration: MANAGE_ORG or RUN_BACKOFFICE in the organization; the super-scope admin in any. */
const windowAdmin = authenticated(REFUSED, {
  super: { own: 200, otherOrg: 200, missing: 404 },
  admin: { own: 200, otherOrg: 404, missing: 404 },
});

export const assessmentPageRows: MatrixRow[] = [
  {
    route: 'GET /api/admin/assessment-windows',
    targets: orgTargets,
    request: (ctx, target) => ({
      url: `/api/admin/assessment-windows?organizationId=${orgFor(ctx, target)}&academicYear=2026-2027`,
    }),
    expect: windowAdmin,
  },
  {
    route: 'PUT /api/admin/assessment-windows/{academicYear}',
    targets: orgTargets,
    request: (ctx, target) => ({
      url: `/api/admin/assessment-windows/${CALENDAR_YEAR}`,
      body: {
        organizationId: orgFor(ctx, target),
        windows: [
          { window: 'BOY', startsOn: '2032-09-05', endsOn: '2032-10-10' },
          { window: 'MOY', startsOn: '2033-01-09', endsOn: '2033-02-10' },
          { window: 'EOY', startsOn: '2033-05-01', endsOn: '2033-05-31' },
        ],
      },
    }),
    expect: windowAdmin,
  },
  {
    route: 'POST /api/admin/assessment-windows/{academicYear}/{window}/open',
    targets: orgTargets,
    request: async (ctx, target) => ({
      url: `/api/admin/assessment-windows/${HAND_YEAR}/BOY/open`,
      body: { organizationId: await handWindow(ctx, target, false) },
    }),
    expect: windowAdmin,
  },
  {
    route: 'POST /api/admin/assessment-windows/{academicYear}/{window}/close',
    targets: orgTargets,
    request: async (ctx, target) => ({
      url: `/api/admin/assessment-windows/${HAND_YEAR}/BOY/close`,
      body: { organizationId: await handWindow(ctx, target, true) },
    }),
    expect: windowAdmin,
  },
  {
    // The holding teacher; organization administrators read it too; a class not held is 404 (spec).
    route: 'GET /api/teacher/classes/{classId}/taqyeem',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: (ctx, target) => ({ url: `/api/teacher/classes/${classFor(ctx, target)}/taqyeem?window=BOY` }),
    expect: authenticated(REFUSED, {
      super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
      admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
      teacher: { own: 200, sameOrg: 404, otherOrg: 404, missing: 404 },
    }),
  },
  {
    // TEACHER with RECORD_TEACHER_ACTION holding the class; each request voids its own fresh sitting.
    route: 'POST /api/teacher/classes/{classId}/taqyeem/void',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: async (ctx, target) => ({
      url: `/api/teacher/classes/${classFor(ctx, target)}/taqyeem/void`,
      body: { kind: 'digital_sitting', targetId: await freshSitting(ctx, target), reason: 'started_by_mistake' },
    }),
    expect: authenticated(REFUSED, {
      super: { own: 403, sameOrg: 403, otherOrg: 403, missing: 404 },
      teacher: { own: 201, sameOrg: 404, otherOrg: 404, missing: 404 },
    }),
  },
];
