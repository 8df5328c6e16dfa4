import type { World } from '@qiraa/app/testing';
import { authenticated, type MatrixContext, type MatrixRow, MISSING, REFUSED, type Target } from '../matrixTypes';

const MISSING_SESSION = 'ses_AAAAAAAAAAAAAA';
const targets: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];

interface Fixture {
  blueprintId: string;
  /** A student of each target's class (a random id for missing). */
  studentOf: Record<Exclude<Target, 'none'>, number>;
}

async function inject(ctx: MatrixContext, method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await ctx.t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${ctx.world.superToken}` },
    ...(payload ? { payload } : {}),
  });
  if (res.statusCode >= 300) throw new Error(`matrix sessions: ${method} ${url} ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Once per world: a global operational grade-2 blueprint and a student in A's other class. */
const fixtures = new WeakMap<World, Promise<Fixture>>();
function fixtureOf(ctx: MatrixContext): Promise<Fixture> {
  let fixture = fixtures.get(ctx.world);
  if (!fixture) {
    fixture = (async () => {
      const report = await inject(ctx, 'POST', '/api/session-blueprints/import', {
        blueprints: [
          {
            externalId: `matrix-session-${ctx.unique()}`,
            grade: 2,
            theme: 'market',
            subSkillIds: ['sb_word_building'],
            targetMinutes: 15,
            titleAr: 'نَبْنِي الْكَلِمَاتِ',
            introAr: 'نَقْرَأُ ثُمَّ نَخْتَارُ الْجَوَابَ.',
          },
        ],
      });
      await inject(ctx, 'POST', `/api/session-blueprints/${report.batchId}/approve`, {});
      const other = await inject(ctx, 'POST', `/api/classes/${ctx.world.a.otherClassId}/students`, {
        fullNameAr: 'طالب آخر',
      });
      return {
        blueprintId: report.rows[0].blueprintId,
        studentOf: {
          own: ctx.world.a.studentId,
          sameOrg: other.studentId,
          otherOrg: ctx.world.b.studentId,
          missing: MISSING.user,
        },
      };
    })();
    fixtures.set(ctx.world, fixture);
  }
  return fixture;
}

const classOf = (ctx: MatrixContext, target: Target) =>
  target === 'own'
    ? ctx.world.a.classId
    : target === 'sameOrg'
      ? ctx.world.a.otherClassId
      : target === 'otherOrg'
        ? ctx.world.b.classId
        : MISSING.class;

/**
 * A fresh session in the target's class, made by the super-admin (a missing target names an unknown id):
 * `draft`, or accepted for a delivery mode. Each row's request gets its own, so a state change by one caller
 * never decides another's answer. The fixture clears the super-admin's creation window: the matrix makes
 * hundreds of sessions and the rate limit has its own spec.
 */
export async function sessionFor(
  ctx: MatrixContext,
  target: Target,
  stage: 'draft' | 'online' | 'printable' | 'mixed' | 'heldOut' = 'draft',
): Promise<{ id: string; studentId: number }> {
  const fixture = await fixtureOf(ctx);
  const studentId = fixture.studentOf[target as Exclude<Target, 'none'>];
  if (target === 'missing') return { id: MISSING_SESSION, studentId };
  const session = await inject(ctx, 'POST', '/api/sessions/from-blueprint', {
    classId: classOf(ctx, target),
    blueprintId: fixture.blueprintId,
  });
  await ctx.t.runtime.sql`delete from ses_session_creations`;
  if (stage !== 'draft') {
    const deliveryMode = stage === 'heldOut' ? 'printable' : stage;
    await inject(ctx, 'POST', `/api/sessions/${session.id}/accept`, { deliveryMode });
  }
  if (stage === 'printable') {
    // No printed child: the row is about who may call; the sheets have their own specs (and cost seconds here).
    await ctx.t.runtime.sql`
      update ses_session_students set included = false, held_out_reason = 'do_not_decide_yet'
      where session_id = ${session.id}`;
  }
  if (stage === 'heldOut') {
    // As accept writes a student whose decision says do_not_decide_yet.
    await ctx.t.runtime.sql`
      update ses_session_students set included = false, held_out_reason = 'do_not_decide_yet'
      where session_id = ${session.id} and student_id = ${studentId}`;
  }
  return { id: session.id, studentId };
}

/** ClassTeacher-scoped: the class's teacher and the super-admin; everyone else refused, tenant first. */
const classTeacher = (ok: number) =>
  authenticated(REFUSED, {
    super: { own: ok, sameOrg: ok, otherOrg: ok, missing: 404 },
    teacher: { own: ok, sameOrg: 403, otherOrg: 404, missing: 404 },
  });

/** Sessions (packages/sessions, docs/sessions.md). */
export const sessionRows: MatrixRow[] = [
  {
    route: 'GET /api/sessions/catalog',
    targets: ['none'],
    filters: ['subSkillId'],
    request: () => ({ url: '/api/sessions/catalog' }),
    expect: authenticated(403, { super: 200, admin: 200, teacher: 200 }),
  },
  {
    route: 'GET /api/sessions/catalog/recommended',
    targets,
    request: (ctx, target) => ({ url: `/api/sessions/catalog/recommended?classId=${classOf(ctx, target)}` }),
    expect: classTeacher(200),
  },
  {
    route: 'GET /api/sessions/recently-generated',
    targets,
    request: (ctx, target) => ({ url: `/api/sessions/recently-generated?classId=${classOf(ctx, target)}` }),
    expect: classTeacher(200),
  },
  {
    route: 'POST /api/sessions/from-blueprint',
    targets,
    request: async (ctx, target) => {
      await ctx.t.runtime.sql`delete from ses_session_creations`;
      return {
        url: '/api/sessions/from-blueprint',
        body: { classId: classOf(ctx, target), blueprintId: (await fixtureOf(ctx)).blueprintId },
      };
    },
    expect: classTeacher(201),
  },
  {
    route: 'PATCH /api/sessions/{id}/edit',
    targets,
    request: async (ctx, target) => ({
      url: `/api/sessions/${(await sessionFor(ctx, target)).id}/edit`,
      body: { theme: 'sea' },
    }),
    expect: classTeacher(200),
  },
  {
    route: 'POST /api/sessions/{id}/accept',
    targets,
    request: async (ctx, target) => ({
      url: `/api/sessions/${(await sessionFor(ctx, target)).id}/accept`,
      body: { deliveryMode: 'online' },
    }),
    expect: classTeacher(200),
  },
  {
    route: 'POST /api/sessions/{id}/distribute-online',
    targets,
    request: async (ctx, target) => ({
      url: `/api/sessions/${(await sessionFor(ctx, target, 'online')).id}/distribute-online`,
      body: {},
    }),
    expect: classTeacher(200),
  },
  {
    route: 'POST /api/sessions/{id}/generate-pdfs',
    targets,
    request: async (ctx, target) => ({
      url: `/api/sessions/${(await sessionFor(ctx, target, 'printable')).id}/generate-pdfs`,
      body: {},
    }),
    expect: classTeacher(200),
  },
  {
    route: 'POST /api/sessions/{id}/deliver-mixed',
    targets,
    request: async (ctx, target) => ({
      url: `/api/sessions/${(await sessionFor(ctx, target, 'mixed')).id}/deliver-mixed`,
      body: {},
    }),
    expect: classTeacher(200),
  },
  {
    route: 'POST /api/sessions/{id}/recipients/{studentId}/include',
    targets,
    request: async (ctx, target) => {
      const { id, studentId } = await sessionFor(ctx, target, 'heldOut');
      return {
        url: `/api/sessions/${id}/recipients/${studentId}/include`,
        body: { overrideCode: 'support_team_agreed' },
      };
    },
    expect: classTeacher(200),
  },
  {
    route: 'POST /api/sessions/{id}/cancel',
    targets,
    request: async (ctx, target) => ({ url: `/api/sessions/${(await sessionFor(ctx, target)).id}/cancel`, body: {} }),
    expect: classTeacher(200),
  },
  {
    route: 'GET /api/sessions/{id}',
    targets,
    request: async (ctx, target) => ({ url: `/api/sessions/${(await sessionFor(ctx, target)).id}` }),
    expect: classTeacher(200),
  },
  {
    route: 'GET /api/sessions/{id}/audit',
    targets,
    request: async (ctx, target) => ({ url: `/api/sessions/${(await sessionFor(ctx, target)).id}/audit` }),
    expect: authenticated(REFUSED, {
      super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
      admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
    }),
  },
];
