import type { World } from '@qiraa/app/testing';
import { endDay, type Place, startLevel } from '@qiraa/training/alerts-testing';
import { authenticated, type MatrixContext, type MatrixRow, MISSING, REFUSED, type Target } from '../matrixTypes';

const MISSING_UUID = '00000000-0000-4000-8000-000000000000';
const once = <T>(cache: WeakMap<World, Promise<T>>, ctx: MatrixContext, make: () => Promise<T>): Promise<T> => {
  let found = cache.get(ctx.world);
  if (!found) {
    found = make();
    cache.set(ctx.world, found);
  }
  return found;
};

async function inject(ctx: MatrixContext, method: 'POST' | 'GET', url: string, token: string, payload?: object) {
  const res = await ctx.t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
  if (res.statusCode >= 300) throw new Error(`fixture ${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** A student of the other teacher's class (organization A): the sameOrg child. */
const sameOrgStudents = new WeakMap<World, Promise<number>>();
const sameOrgStudent = (ctx: MatrixContext) =>
  once(sameOrgStudents, ctx, async () => {
    const body = { primaryPersona: 'STUDENT', fullNameAr: 'طالب', classId: ctx.world.a.otherClassId };
    return (await inject(ctx, 'POST', '/api/users', ctx.world.superToken, body)).id as number;
  });

/** One open no_progress_at_level alert of a child: three bad ended days at level 2, raised by the reactor. */
async function raiseAlert(ctx: MatrixContext, studentId: number, organizationId: string): Promise<string> {
  const p: Place = { studentId, organizationId, skillId: 'familiar_word_reading', measureCode: 'word_recognition' };
  const store = ctx.t.runtime.store;
  await startLevel(store, p, 2, '2026-10-04');
  for (const date of ['2026-10-05', '2026-10-06', '2026-10-07']) await endDay(store, p, 2, date, 5, 1);
  await ctx.t.runtime.projector.catchUp();
  const [row] = await ctx.t.db.sql<{ alert_id: string }[]>`
    select alert_id from trn_alerts where student_id = ${studentId} order by raised_at limit 1`;
  if (!row) throw new Error('fixture alert not raised');
  return row.alert_id;
}
const alerts = new WeakMap<World, Promise<Record<'own' | 'sameOrg' | 'otherOrg', string>>>();
const alertsOf = (ctx: MatrixContext) =>
  once(alerts, ctx, async () => ({
    own: await raiseAlert(ctx, ctx.world.a.studentId, ctx.world.a.id),
    sameOrg: await raiseAlert(ctx, await sameOrgStudent(ctx), ctx.world.a.id),
    otherOrg: await raiseAlert(ctx, ctx.world.b.studentId, ctx.world.b.id),
  }));

/** A fresh support group per call (the delete row archives it): the teacher's, the other teacher's, organization B's. */
async function groupOf(ctx: MatrixContext, target: Target): Promise<string> {
  const w = ctx.world;
  if (target === 'missing' || target === 'none') return MISSING_UUID;
  const [token, studentId] =
    target === 'own'
      ? [w.a.teacherToken, w.a.studentId]
      : target === 'sameOrg'
        ? [w.a.otherTeacherToken, await sameOrgStudent(ctx)]
        : [w.b.teacherToken, w.b.studentId];
  return (await inject(ctx, 'POST', '/api/training/groups', token, { nameAr: 'مجموعة', studentIds: [studentId] }))
    .groupId;
}

const studentOf = async (ctx: MatrixContext, target: Target) =>
  target === 'own'
    ? ctx.world.a.studentId
    : target === 'sameOrg'
      ? sameOrgStudent(ctx)
      : target === 'otherOrg'
        ? ctx.world.b.studentId
        : MISSING.user;

/** One operational training item (grade 2, familiar word reading), so a send has content to serve. */
const trainingContent = new WeakMap<World, Promise<void>>();
const withTrainingContent = (ctx: MatrixContext) =>
  once(trainingContent, ctx, async () => {
    await ctx.t.db.sql`
      insert into content_items (id, organization_id, external_id, version, content_role, content_purpose, grade,
        sub_skill_id, item_pattern, training_level, stem_ar, options, correct_option_key, status, content_hash)
      values ('itm_matrix_training', null, 'matrix-training-1', 1, 'target_training', 'training', 2, 'fw_common_words',
        'word_match', 1, 'اختر الكلمة', '[{"key":"a","textAr":"باب"}]', 'a', 'operational', 'matrix')
      on conflict do nothing`;
  });
const tomorrow = () =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Amman',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(Date.now() + 86_400_000));

/** Only the owner (teacher of organization A) acts on the own target; the super-scope admin owns no group. */
const OWNER_ONLY = (ok: number) =>
  authenticated(REFUSED, {
    super: { own: 403, sameOrg: 403, otherOrg: 403, missing: 404 },
    teacher: { own: ok, sameOrg: 403, otherOrg: 404, missing: 404 },
  });

/**
 * Training alerts and support groups (packages/training, docs/training-alerts.md): a class's
 * alerts for its teachers, a group's for its owner (403 NOT_CLASS_TEACHER otherwise); acknowledge by a teacher who
 * reaches the child; groups are a teacher's own.
 */
export const trainingAlertRows: MatrixRow[] = [
  {
    route: 'GET /api/training/alerts',
    variant: 'classId',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: (ctx, target) => {
      const classId = { own: ctx.world.a.classId, sameOrg: ctx.world.a.otherClassId, otherOrg: ctx.world.b.classId }[
        target as 'own'
      ];
      return { url: `/api/training/alerts?classId=${classId ?? MISSING.class}` };
    },
    expect: OWNER_ONLY(200),
  },
  {
    route: 'GET /api/training/alerts',
    variant: 'groupId',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: async (ctx, target) => ({ url: `/api/training/alerts?groupId=${await groupOf(ctx, target)}` }),
    expect: OWNER_ONLY(200),
  },
  {
    route: 'POST /api/training/alerts/{alertId}/acknowledge',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: async (ctx, target) => {
      const ids = await alertsOf(ctx);
      return { url: `/api/training/alerts/${ids[target as 'own'] ?? MISSING_UUID}/acknowledge`, body: {} };
    },
    expect: OWNER_ONLY(200),
  },
  {
    route: 'POST /api/training/groups',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: async (ctx, target) => ({
      url: '/api/training/groups',
      body: { nameAr: 'مجموعة', studentIds: [await studentOf(ctx, target)] },
    }),
    expect: authenticated(REFUSED, {
      super: { own: 403, sameOrg: 403, otherOrg: 403, missing: 404 },
      teacher: { own: 201, sameOrg: 403, otherOrg: 404, missing: 404 },
    }),
  },
  {
    route: 'GET /api/training/groups',
    targets: ['none'],
    request: () => ({ url: '/api/training/groups' }),
    // A teacher's own groups; anyone else 403 (issue 24: a student got 200 empty).
    expect: authenticated(403, { teacher: 200 }),
  },
  {
    route: 'PUT /api/training/groups/{groupId}/members',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: async (ctx, target) => ({
      url: `/api/training/groups/${await groupOf(ctx, target)}/members`,
      body: { studentIds: [ctx.world.a.studentId] },
    }),
    expect: OWNER_ONLY(200),
  },
  {
    route: 'DELETE /api/training/groups/{groupId}',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: async (ctx, target) => ({ url: `/api/training/groups/${await groupOf(ctx, target)}` }),
    expect: OWNER_ONLY(204),
  },
  {
    // Every caller names the class's teacher as the one it sends for (a teacher names itself).
    route: 'POST /api/training/sends',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: async (ctx, target) => {
      await withTrainingContent(ctx);
      const classId = { own: ctx.world.a.classId, sameOrg: ctx.world.a.otherClassId, otherOrg: ctx.world.b.classId }[
        target as 'own'
      ];
      return {
        url: '/api/training/sends',
        headers: { 'x-idempotency-key': `matrix-${ctx.unique()}` },
        body: {
          classId: classId ?? MISSING.class,
          untilDate: tomorrow(),
          onBehalfOfTeacherUserId: ctx.world.a.teacherId,
        },
      };
    },
    expect: authenticated(REFUSED, {
      super: { own: 201, sameOrg: 403, otherOrg: 404, missing: 404 },
      admin: { own: 201, sameOrg: 403, otherOrg: 404, missing: 404 },
      teacher: { own: 201, sameOrg: 403, otherOrg: 404, missing: 404 },
      principal: { own: 201, sameOrg: 403, otherOrg: 404, missing: 404 },
      manager: { own: 201, sameOrg: 403, otherOrg: 404, missing: 404 },
    }),
  },
];
