import type { World } from '@qiraa/app/testing';
import { authenticated, type MatrixContext, type MatrixRow, MISSING, REFUSED, type Target } from '../matrixTypes';
import { classFor } from './identityCore';

let serial = 0;
const MISSING_BADGE = 999_999_999;

export async function asSuper(ctx: MatrixContext, url: string, payload: object) {
  const res = await ctx.t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { authorization: `Bearer ${ctx.world.superToken}` },
  });
  if (res.statusCode >= 300) throw new Error(`fixture POST ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** A fresh student of the target's class (own: the teacher's class; sameOrg: the other teacher's class). */
async function freshStudent(ctx: MatrixContext, target: Target): Promise<number> {
  return (await asSuper(ctx, `/api/classes/${classFor(ctx, target)}/students`, { fullNameAr: 'طالب' })).studentId;
}

/**
 * Rescind is destructive: every call gets a badge of its own, awarded to a fresh student by a first mastery
 * event (badge first_step), its id read from the read model.
 */
async function freshBadge(ctx: MatrixContext, target: Target): Promise<number> {
  if (target === 'missing') return MISSING_BADGE;
  const studentId = await freshStudent(ctx, target);
  await asSuper(ctx, '/api/gamification/mastery-events', {
    kind: 'mastery_event',
    engineEventId: `matrix-rescind-${process.pid}-${serial++}`,
    studentId,
    sourceKind: 'band_progression',
    occurredAt: '2026-11-02T08:00:00Z',
    sessionId: 'matrix-rescind',
  });
  const [badge] = await ctx.t.db.sql<{ id: string }[]>`select id from gam_badge_awards where student_id = ${studentId}`;
  if (!badge) throw new Error(`fixture: no badge for student ${studentId}`);
  return Number(badge.id);
}

// Read-only rows share one student of the other teacher's class per world.
const sameOrgStudents = new WeakMap<World, Promise<number>>();
export async function studentFor(ctx: MatrixContext, target: Target): Promise<number> {
  if (target === 'own') return ctx.world.a.studentId;
  if (target === 'otherOrg') return ctx.world.b.studentId;
  if (target === 'missing') return MISSING.user;
  let student = sameOrgStudents.get(ctx.world);
  if (!student) {
    student = freshStudent(ctx, target);
    sameOrgStudents.set(ctx.world, student);
  }
  return student;
}

const all: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];

/** RUN_BACKOFFICE: the super admin anywhere, an organization admin in their organization only. */
const backOffice = (ok: number) =>
  authenticated(REFUSED, {
    super: { own: ok, sameOrg: ok, otherOrg: ok, missing: 404 },
    admin: { own: ok, sameOrg: ok, otherOrg: 404, missing: 404 },
  });

/** Badge rescind, audit and replay. */
export const gamificationAdminRows: MatrixRow[] = [
  {
    route: 'POST /api/teachers/badges/{studentBadgeId}/rescind',
    targets: all,
    request: async (ctx, target) => ({
      url: `/api/teachers/badges/${await freshBadge(ctx, target)}/rescind`,
      body: { overrideCode: 'Gam_Award_Invalid_05' },
    }),
    // A ClassTeacher of the badge's student only; every other persona lacks RECORD_TEACHER_ACTION (the
    // super-scope administrator too, who reaches every organization's badge: 403 there).
    expect: authenticated(REFUSED, {
      super: { own: 403, sameOrg: 403, otherOrg: 403, missing: 404 },
      teacher: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
    }),
  },
  {
    route: 'GET /api/admin/gamification/audit',
    targets: all,
    request: async (ctx, target) => ({
      url: `/api/admin/gamification/audit?studentId=${await studentFor(ctx, target)}`,
    }),
    expect: backOffice(200),
  },
  {
    route: 'POST /api/admin/gamification/replay',
    targets: all,
    request: async (ctx, target) => ({
      url: '/api/admin/gamification/replay',
      body: { studentId: await studentFor(ctx, target), asOf: new Date().toISOString() },
    }),
    expect: backOffice(200),
  },
];
