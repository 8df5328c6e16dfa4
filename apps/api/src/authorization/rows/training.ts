import type { World } from '@qiraa/app/testing';
import { insertForm } from '@qiraa/content/testing';
import { currentDay } from '@qiraa/training';
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

/** Once per world: a draft grade-4 EOY item of each organization (nothing else serves grade 4 or EOY). */
const items = new WeakMap<World, Promise<{ a: string; b: string }>>();
async function itemOf(ctx: MatrixContext, target: Target): Promise<string> {
  let found = items.get(ctx.world);
  if (!found) {
    found = (async () => {
      const make = async (organizationId: string) =>
        (
          await insertForm(ctx.t.db.sql, {
            organizationId,
            grade: 4,
            window: 'EOY',
            status: 'draft',
            measures: { word_recognition: 1 },
          })
        ).itemIds.word_recognition![0]!;
      return { a: await make(ctx.world.a.id), b: await make(ctx.world.b.id) };
    })();
    items.set(ctx.world, found);
  }
  const ids = await found;
  return target === 'own' ? ids.a : target === 'otherOrg' ? ids.b : 'itm_AAAAAAAAAAAAAA';
}

const UNKNOWN_DAY = '00000000-0000-4000-8000-000000000000';

/**
 * Once per world: a training day of a fresh child of the teacher's class (grade 2), opened through the queue's
 * command on one global operational training item (the same item the send rows add), so the day row's own
 * target names a real day. A fresh child keeps the world's student free of training days.
 */
const ownDays = new WeakMap<World, Promise<{ studentId: number; dayId: string }>>();
function ownDay(ctx: MatrixContext): Promise<{ studentId: number; dayId: string }> {
  let found = ownDays.get(ctx.world);
  if (!found) {
    found = (async () => {
      await ctx.t.db.sql`
        insert into content_items (id, organization_id, external_id, version, content_role, content_purpose, grade,
          sub_skill_id, item_pattern, training_level, stem_ar, options, correct_option_key, status, content_hash)
        values ('itm_matrix_training', null, 'matrix-training-1', 1, 'target_training', 'training', 2,
          'fw_common_words', 'word_match', 1, 'اختر الكلمة', '[{"key":"a","textAr":"باب"}]', 'a', 'operational',
          'matrix')
        on conflict do nothing`;
      const res = await ctx.t.app.inject({
        method: 'POST',
        url: '/api/users',
        payload: { primaryPersona: 'STUDENT', fullNameAr: 'طالبة', classId: ctx.world.a.classId },
        headers: { authorization: `Bearer ${ctx.world.superToken}` },
      });
      if (res.statusCode !== 201) throw new Error(`fixture student: ${res.statusCode} ${res.body}`);
      const studentId = res.json().id as number;
      const { fold } = await currentDay({ sql: ctx.t.db.sql, store: ctx.t.runtime.store }, studentId, { open: true });
      if (!fold) throw new Error('fixture training day: nothing to serve');
      return { studentId, dayId: fold.opened.dayId };
    })();
    ownDays.set(ctx.world, found);
  }
  return found;
}

/** Training on the staff side: the child's teacher (or a support group's owner), and staff organization-wide. */
const DAY_READERS = {
  super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
  admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
  teacher: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
  principal: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
  manager: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
};

/**
 * Training (packages/training, docs/training.md): the practice queue is the child's own (student token only);
 * levels need VIEW_OWN_CLASSES or RUN_BACKOFFICE and 404 a child the caller does not reach; the training-day
 * views follow the spec's reach (403 in the organization but not taught).
 */
export const trainingRows: MatrixRow[] = [
  {
    // Without training content in the matrix world the child gets `served: null` (no_eligible_item): a 200.
    route: 'GET /api/practice/queues/current/next-item',
    targets: ['none'],
    request: async () => ({ url: '/api/practice/queues/current/next-item' }),
    expect: authenticated(403, { student: 200 }),
  },
  {
    // Own: an item of organization A that is not being asked (409 item_not_current for the child, who has no
    // open day); another organization's or an unknown item: 404 for everyone, before the persona check.
    route: 'POST /api/practice/queues/current/submit-response',
    targets: ['own', 'otherOrg', 'missing'],
    request: async (ctx, target) => ({
      url: '/api/practice/queues/current/submit-response',
      body: { itemId: await itemOf(ctx, target), selectedOptionKey: 'a' },
    }),
    expect: authenticated(
      { own: 403, otherOrg: 404, missing: 404 },
      {
        student: { own: 409, otherOrg: 404, missing: 404 },
        // The super-admin's scope holds every organization's items: only the persona refuses it.
        super: { own: 403, otherOrg: 403, missing: 404 },
      },
    ),
  },
  {
    route: 'GET /api/practice/queues/current/state',
    targets: ['none'],
    request: async () => ({ url: '/api/practice/queues/current/state' }),
    expect: authenticated(403, { student: 200 }),
  },
  {
    route: 'GET /api/training/students/{studentId}/levels',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: async (ctx, target) => ({ url: `/api/training/students/${await studentOf(ctx, target)}/levels` }),
    expect: authenticated(REFUSED, {
      super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
      admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
      teacher: { own: 200, sameOrg: 404, otherOrg: 404, missing: 404 },
    }),
  },
  {
    route: 'GET /api/practice/students/{studentId}/training-sessions',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: async (ctx, target) => ({
      url: `/api/practice/students/${await studentOf(ctx, target)}/training-sessions`,
    }),
    expect: authenticated(REFUSED, DAY_READERS),
  },
  {
    // Own: a real day of a child of the teacher's class (200 for whoever reaches the child). Elsewhere the day is
    // unknown: a caller who reaches the child meets 404 for the day, the others 403 / 404 as the list.
    route: 'GET /api/practice/students/{studentId}/training-sessions/{trainingSessionId}',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: async (ctx, target) => {
      if (target === 'own') {
        const { studentId, dayId } = await ownDay(ctx);
        return { url: `/api/practice/students/${studentId}/training-sessions/${dayId}` };
      }
      return { url: `/api/practice/students/${await studentOf(ctx, target)}/training-sessions/${UNKNOWN_DAY}` };
    },
    expect: authenticated(REFUSED, {
      super: { own: 200, sameOrg: 404, otherOrg: 404, missing: 404 },
      admin: { own: 200, sameOrg: 404, otherOrg: 404, missing: 404 },
      teacher: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
      principal: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
      manager: { own: 200, sameOrg: 404, otherOrg: 404, missing: 404 },
    }),
  },
];
