import { itemRowById, studentItemOf } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import { activeEnrolmentsQuery } from '@qiraa/identity';

/** A recipient's queued online slot as the practice queue serves it. */
export interface QueuedSession {
  sessionId: string;
  slotId: string;
  studentId: number;
  organizationId: string;
  itemIds: string[];
  answeredItemIds: string[];
  correct: number;
}

/** The first statement of queuedSessionOf: the queued slot's row, if any. */
const queuedSessionRow = (sql: AnySql, studentId: number) => sql`
    select s.session_id, s.slot_id, x.organization_id, s.item_ids, p.correct
    from ses_session_students s
    join ses_sessions x on x.id = s.session_id
    join ses_blueprints b on b.id = x.blueprint_id
    left join ses_slot_progress p on p.session_id = s.session_id and p.student_id = s.student_id
    where s.student_id = ${studentId} and s.included and s.online_queued_at is not null
      and x.status in ('previewed', 'delivered')
      and p.completed_at is null
      and cardinality(s.item_ids) > 0
      and (x.class_id, s.student_id) in (select e.class_id, e.student_id from (${activeEnrolmentsQuery(sql)}) e)
      and not exists (
        select 1 from ses_session_students s2
        join ses_sessions x2 on x2.id = s2.session_id
        join ses_blueprints b2 on b2.id = x2.blueprint_id
        where s2.student_id = s.student_id and s2.included and s2.online_queued_at is not null
          and x2.class_id = x.class_id and x2.status in ('previewed', 'delivered')
          and b2.external_id = b.external_id and coalesce(b2.organization_id, '') = coalesce(b.organization_id, '')
          and (s2.online_queued_at, s2.session_id) > (s.online_queued_at, s.session_id))
    order by s.online_queued_at, s.session_id
    limit 1`;

/**
 * Whether a session is queued for the child (queuedSessionOf's row exists), as a scalar subquery (boolean),
 * for a caller that reads it in one statement with its own reads.
 */
export const sessionQueuedExpr = (sql: AnySql, studentId: number) => sql`exists (${queuedSessionRow(sql, studentId)})`;

/**
 * The child's session waiting in the practice queue: an included slot queued online (distribute-online, the
 * online part of deliver-mixed, or the child opening a printed sheet's link) of a session still `previewed`
 * or `delivered`, not completed, the child still active in the session's class, and not **superseded**: a
 * later queued slot of the same class and blueprint (the teacher made the same session again) replaces it.
 * Oldest queued first. A cancelled session never serves (only drafts are cancelled, and a draft has no slot).
 */
export async function queuedSessionOf(sql: AnySql, studentId: number, lock = false): Promise<QueuedSession | null> {
  const [row] = await sql<
    { session_id: string; slot_id: string; organization_id: string; item_ids: string[]; correct: number | null }[]
  >`${queuedSessionRow(sql, studentId)}`;
  if (!row) return null;
  if (lock) {
    await sql`select 1 from ses_session_students
              where session_id = ${row.session_id} and student_id = ${studentId} for update`;
  }
  const answered = await sql<{ item_id: string }[]>`
    select item_id from ses_slot_answers where session_id = ${row.session_id} and student_id = ${studentId}
    order by position`;
  return {
    sessionId: row.session_id,
    slotId: row.slot_id,
    studentId,
    organizationId: row.organization_id,
    itemIds: row.item_ids,
    answeredItemIds: answered.map((a) => a.item_id),
    correct: row.correct ?? 0,
  };
}

/** The item being asked: the first of the frozen list not answered yet (one try per session item). */
export function currentSessionItem(q: QueuedSession): string | null {
  return q.itemIds.find((id) => !q.answeredItemIds.includes(id)) ?? null;
}

const itemOf = itemRowById;

/** What next-item serves in the session phase: the item in the student projection, and the progress. */
export async function sessionServed(sql: AnySql, q: QueuedSession) {
  const itemId = currentSessionItem(q);
  const row = itemId ? await itemOf(sql, itemId) : null;
  return {
    item: row ? studentItemOf(row) : null,
    progress: { answered: q.answeredItemIds.length, planned: q.itemIds.length },
  };
}
