import type { World } from '@qiraa/app/testing';
import { openWindowFor } from '@qiraa/assessment/testing';
import { insertForm } from '@qiraa/content/testing';
import { authenticated, type MatrixContext, type MatrixRow, type Target } from '../matrixTypes';

const MISSING_SITTING = '00000000-0000-4000-8000-000000000000';
const YEAR = '2026-2027';

interface SittingFixture {
  /** own: the world's student of organization A; sameOrg: a student of A's other school; otherOrg: B's student. */
  ids: Record<Exclude<Target, 'none'>, string>;
}

/**
 * An open BOY window in both organizations, a global grade-2 BOY form of text1 questions with a global cell
 * (the content rows may have stored organization cells of text1 + orf_text; either serves text1), and one
 * open sitting per target, each started by its own student through the API.
 */
const fixtures = new WeakMap<World, Promise<SittingFixture>>();
function sittingFixture(ctx: MatrixContext): Promise<SittingFixture> {
  let fixture = fixtures.get(ctx.world);
  if (!fixture) {
    fixture = (async () => {
      const { sql } = ctx.t.db;
      await openWindowFor(sql, ctx.world.a.id, YEAR);
      await openWindowFor(sql, ctx.world.b.id, YEAR);
      await insertForm(sql, { grade: 2, window: 'BOY', measures: { text1_comprehension: 3 } });
      await sql`
        insert into content_diagnostic_blueprint_cells (organization_id, grade, window_code, kind, measures)
        values (null, 2, 'BOY', 'measures', ${sql.array(['text1_comprehension'], 1009)})
        on conflict do nothing`;
      const startAs = async (token: string) => {
        const res = await ctx.t.app.inject({
          method: 'POST',
          url: '/api/diagnostic-sessions/start',
          headers: { authorization: `Bearer ${token}` },
        });
        if (res.statusCode !== 200 || !res.json().sittingId) throw new Error(`matrix sitting: ${res.body}`);
        return res.json().sittingId as string;
      };
      // A student of organization A's other class (outside the teacher's and the principal's reach).
      const root = { authorization: `Bearer ${ctx.world.superToken}` };
      const [free] = await sql<{ code: string }[]>`
        select lpad(n::text, 2, '0') as code from generate_series(99, 1, -1) n
        where lpad(n::text, 2, '0') not in (
          select quick_code from class_students where class_id = ${ctx.world.a.otherClassId} and active)
        limit 1`;
      const quickCode = free!.code;
      const created = await ctx.t.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: root,
        payload: { primaryPersona: 'STUDENT', fullNameAr: 'سلمى', classId: ctx.world.a.otherClassId, quickCode },
      });
      const [cls] = await sql<{ login_code: string }[]>`
        select login_code from classes where id = ${ctx.world.a.otherClassId}`;
      if (created.statusCode !== 201 || !cls) throw new Error(`matrix student: ${created.body}`);
      const login = await ctx.t.app.inject({
        method: 'POST',
        url: '/api/auth/student/quickcode',
        payload: { classCode: cls.login_code, quickCode },
      });
      return {
        ids: {
          own: await startAs(ctx.world.a.studentToken),
          sameOrg: await startAs(login.json().accessToken),
          otherOrg: await startAs(ctx.world.b.studentToken),
          missing: MISSING_SITTING,
        },
      };
    })();
    fixtures.set(ctx.world, fixture);
  }
  return fixture;
}

const sittingId = async (ctx: MatrixContext, target: Target) =>
  (await sittingFixture(ctx)).ids[target as Exclude<Target, 'none'>];

/** The question the sitting serves now and its first option (a valid answer for the own student). */
async function servedAnswer(ctx: MatrixContext, id: string) {
  const [row] = await ctx.t.db.sql<{ item_id: string | null; key: string | null }[]>`
    select q.item_id, (select o->>'key' from content_items i, jsonb_array_elements(i.options) o
                       where i.id = q.item_id limit 1) as key
    from asm_sittings s,
         lateral (select s.started->'plan'->(select count(*)::int from jsonb_object_keys(s.answers))->>'itemId'
                  as item_id) q
    where s.attempt_id = ${id}`;
  return { itemId: row?.item_id ?? 'itm_none', answer: row?.key ?? 'a' };
}

const all: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];

/** A student's own sitting only: other students 404 (not theirs), adults 403 in their organization. */
const studentOwn = authenticated(
  { own: 403, sameOrg: 403, otherOrg: 404, missing: 404 },
  {
    super: { own: 403, sameOrg: 403, otherOrg: 403, missing: 404 },
    student: { own: 200, sameOrg: 404, otherOrg: 404, missing: 404 },
  },
);

export const assessmentSittingRows: MatrixRow[] = [
  {
    route: 'POST /api/diagnostic-sessions/start',
    targets: ['none'],
    request: async (ctx) => {
      await sittingFixture(ctx);
      return { url: '/api/diagnostic-sessions/start' };
    },
    expect: authenticated(403, { student: 200 }),
  },
  {
    // The student's window sitting is open: the re-diagnostic resumes it.
    route: 'POST /api/diagnostic-sessions/start/re-diagnostic',
    targets: ['none'],
    request: async (ctx) => {
      await sittingFixture(ctx);
      return { url: '/api/diagnostic-sessions/start/re-diagnostic', body: {} };
    },
    expect: authenticated(403, { student: 200 }),
  },
  {
    route: 'POST /api/diagnostic-sessions/{id}/resume',
    targets: all,
    request: async (ctx, target) => ({ url: `/api/diagnostic-sessions/${await sittingId(ctx, target)}/resume` }),
    expect: studentOwn,
  },
  {
    route: 'POST /api/diagnostic-sessions/{id}/answers',
    targets: all,
    request: async (ctx, target) => {
      const id = await sittingId(ctx, target);
      return { url: `/api/diagnostic-sessions/${id}/answers`, body: await servedAnswer(ctx, id) };
    },
    expect: studentOwn,
  },
  {
    route: 'GET /api/diagnostic-sessions/{id}/state',
    targets: all,
    request: async (ctx, target) => ({ url: `/api/diagnostic-sessions/${await sittingId(ctx, target)}/state` }),
    expect: authenticated(
      { own: 403, sameOrg: 403, otherOrg: 404, missing: 404 },
      {
        super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
        admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
        teacher: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
        student: { own: 200, sameOrg: 404, otherOrg: 404, missing: 404 },
      },
    ),
  },
];
