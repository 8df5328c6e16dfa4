import { celebrationIdOf } from '@qiraa/gamification';
import { authenticated, type MatrixContext, type MatrixRow, MISSING, REFUSED, type Target } from '../matrixTypes';

let serial = 0;

/** own: the student of the teacher's class (linked to the parent); sameOrg: a student of the other school. */
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

const all: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];

const celebrating = new WeakMap<MatrixContext['t'], Promise<void>>();

/** The target student's avatar-tier-2 celebration; the own student reaches tier 2 (five events) once per app. */
async function celebrationFor(ctx: MatrixContext, studentId: number, target: Target): Promise<string> {
  if (target === 'own' && !celebrating.has(ctx.t)) {
    celebrating.set(
      ctx.t,
      (async () => {
        for (let i = 0; i < 5; i++) {
          await ctx.t.app.inject({
            method: 'POST',
            url: '/api/gamification/mastery-events',
            headers: { authorization: `Bearer ${ctx.world.superToken}` },
            payload: {
              kind: 'mastery_event',
              engineEventId: `matrix-celebration-${process.pid}-${serial++}`,
              studentId,
              sourceKind: 'cbm_trend_above_goal',
              occurredAt: '2026-11-02T08:00:00Z',
              sessionId: 'matrix-celebration',
            },
          });
        }
      })(),
    );
  }
  await celebrating.get(ctx.t);
  return celebrationIdOf(studentId, 'avatar_tier', 2);
}

export const gamificationRows: MatrixRow[] = [
  {
    route: 'POST /api/gamification/mastery-events',
    targets: all,
    request: async (ctx, target) => ({
      url: '/api/gamification/mastery-events',
      body: {
        kind: 'mastery_event',
        engineEventId: `matrix-${process.pid}-${serial++}`,
        studentId: await studentFor(ctx, target),
        sourceKind: 'cbm_trend_above_goal',
        occurredAt: '2026-11-02T08:00:00Z',
        sessionId: 'matrix',
      },
    }),
    expect: authenticated(REFUSED, {
      super: { own: 201, sameOrg: 201, otherOrg: 201, missing: 404 },
      admin: { own: 201, sameOrg: 201, otherOrg: 404, missing: 404 },
    }),
  },
  {
    // Per-event outcomes: another organization's student is that event's `not_found` (ingestBatch spec).
    route: 'POST /api/gamification/mastery-events/batch',
    targets: ['none'],
    request: async (ctx) => ({
      url: '/api/gamification/mastery-events/batch',
      body: {
        events: [
          {
            kind: 'mastery_event',
            engineEventId: `matrix-batch-${process.pid}-${serial++}`,
            studentId: await studentFor(ctx, 'own'),
            sourceKind: 'cbm_trend_above_goal',
            occurredAt: '2026-11-02T08:00:00Z',
            sessionId: 'matrix',
          },
        ],
      },
    }),
    expect: authenticated(403, { super: 200, admin: 200 }),
  },
  {
    route: 'GET /api/students/{id}/gamification/profile',
    targets: all,
    request: async (ctx, target) => ({ url: `/api/students/${await studentFor(ctx, target)}/gamification/profile` }),
    expect: authenticated(
      { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
      {
        super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
        admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
        manager: { own: 403, sameOrg: 403, otherOrg: 404, missing: 404 },
      },
    ),
  },
  {
    route: 'POST /api/students/{id}/gamification/celebrations/{celebrationId}/ack',
    targets: all,
    request: async (ctx, target) => {
      const studentId = await studentFor(ctx, target);
      return {
        url: `/api/students/${studentId}/gamification/celebrations/${await celebrationFor(ctx, studentId, target)}/ack`,
        body: {},
      };
    },
    // The student themself only: every adult who reaches the student is refused, the super admin included.
    expect: authenticated(
      { own: 403, sameOrg: 403, otherOrg: 404, missing: 404 },
      {
        super: { own: 403, sameOrg: 403, otherOrg: 403, missing: 404 },
        student: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
      },
    ),
  },
];
