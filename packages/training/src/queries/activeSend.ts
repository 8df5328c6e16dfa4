import type { AnySql } from '@qiraa/db';

/**
 * The send the child's queue follows now: the newest send naming a skill whose window holds `now` (sent at or
 * before it, `until_at` after it) and whose recipients include the child. Null outside every window, or for
 * a send without a skill (it sends the children's current training skills: the levelled plan as it is).
 */
export async function activeSendOf(
  sql: AnySql,
  studentId: number,
  now: Date,
): Promise<{ sendId: string; skillId: string } | null> {
  const [row] = await sql<{ send: SendJson | null }[]>`select ${activeSendJson(sql, studentId, now)} as send`;
  return sendOfJson(row?.send ?? null);
}

export interface SendJson {
  send_id: string;
  skill_id: string;
}

/** activeSendOf's read as a scalar subquery (a JSON object or null), for a statement that reads more at once. */
export const activeSendJson = (sql: AnySql, studentId: number, now: Date) => sql`(
    select json_build_object('send_id', send_id, 'skill_id', skill_id) from trn_sends
    where student_ids @> array[${studentId}]::bigint[] and skill_id is not null
      and created_at <= ${now} and until_at > ${now}
    order by created_at desc, send_id
    limit 1)`;

export const sendOfJson = (row: SendJson | null) => (row ? { sendId: row.send_id, skillId: row.skill_id } : null);
