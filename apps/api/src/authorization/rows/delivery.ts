import type { World } from '@qiraa/app/testing';
import { authenticated, type MatrixContext, type MatrixRow, REFUSED, type Target } from '../matrixTypes';
import { sessionFor } from './sessions';

const MISSING_UUID = '00000000-0000-4000-8000-000000000000';

/**
 * The printed sheet's link (`/s/{slotId}` is this route): a slot of an online-accepted session per target,
 * the world's child in A's class (own), a child of A's other class (sameOrg), B's child (otherOrg).
 */
const slots = new WeakMap<World, Map<Target, Promise<string>>>();
function slotOf(ctx: MatrixContext, target: Target): Promise<string> {
  if (target === 'missing' || target === 'none') return Promise.resolve('sst_AAAAAAAAAAAAAA');
  // One slot per target and world: opening a link changes nothing a later caller's answer depends on.
  let perTarget = slots.get(ctx.world);
  if (!perTarget) {
    perTarget = new Map();
    slots.set(ctx.world, perTarget);
  }
  let slot = perTarget.get(target);
  if (!slot) {
    slot = (async () => {
      const { id, studentId } = await sessionFor(ctx, target, 'online');
      const [row] = await ctx.t.db.sql<{ slot_id: string }[]>`
        select slot_id from ses_session_students where session_id = ${id} and student_id = ${studentId}`;
      if (!row) throw new Error(`matrix delivery: no slot for ${target}`);
      return row.slot_id;
    })();
    perTarget.set(target, slot);
  }
  return slot;
}

/** One send per target, written as the sends projection writes it (the route only reads it). */
const sends = new WeakMap<World, Promise<Record<'own' | 'sameOrg' | 'otherOrg', string>>>();
function sendsOf(ctx: MatrixContext) {
  let found = sends.get(ctx.world);
  if (!found) {
    found = (async () => {
      const w = ctx.world;
      const sql = ctx.t.db.sql;
      const make = async (organizationId: string, classId: string, studentId: number) => {
        const [teacher] = await sql<{ teacher_user_id: string }[]>`
          select teacher_user_id from class_teachers where class_id = ${classId} limit 1`;
        const [row] = await sql<{ send_id: string }[]>`
          insert into trn_sends (send_id, organization_id, teacher_user_id, sent_by_user_id, class_id, group_id,
            skill_id, student_ids, until_at, created_at)
          values (gen_random_uuid(), ${organizationId}, ${teacher?.teacher_user_id ?? w.a.teacherId},
            ${teacher?.teacher_user_id ?? w.a.teacherId}, ${classId}, null, 'letter_sounds',
            ${[studentId]}::bigint[], now() + interval '1 day', now())
          returning send_id`;
        return row!.send_id;
      };
      return {
        own: await make(w.a.id, w.a.classId, w.a.studentId),
        sameOrg: await make(w.a.id, w.a.otherClassId, w.a.studentId),
        otherOrg: await make(w.b.id, w.b.classId, w.b.studentId),
      };
    })();
    sends.set(ctx.world, found);
  }
  return found;
}

/** Online and printed delivery reaching the child, and a send's progress (docs/sessions.md, docs/training-alerts.md). */
export const deliveryRows: MatrixRow[] = [
  {
    // Only the slot's child opens it; another child gets 404 (as for a slot that does not exist).
    route: 'GET /api/sessions/links/{slotId}',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: async (ctx, target) => ({ url: `/api/sessions/links/${await slotOf(ctx, target)}` }),
    expect: authenticated(REFUSED, {
      super: { own: 403, sameOrg: 403, otherOrg: 403, missing: 404 },
      student: { own: 200, sameOrg: 404, otherOrg: 404, missing: 404 },
    }),
  },
  {
    route: 'GET /api/training/sends/{sendId}',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: async (ctx, target) => ({
      url: `/api/training/sends/${target === 'missing' || target === 'none' ? MISSING_UUID : (await sendsOf(ctx))[target]}`,
    }),
    expect: authenticated(REFUSED, {
      super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
      admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
      manager: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
      teacher: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
      principal: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
    }),
  },
];
