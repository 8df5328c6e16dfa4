import type { AnySql } from '@qiraa/db';

/** The student a badge award belongs to (undefined when there is no such award). */
export async function badgeStudent(sql: AnySql, studentBadgeId: number): Promise<string | undefined> {
  const [badge] = await sql<{ student_id: string }[]>`
    select student_id from gam_badge_awards where id = ${studentBadgeId}`;
  return badge?.student_id;
}
