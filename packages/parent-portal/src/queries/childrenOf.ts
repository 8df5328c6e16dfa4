import { attemptHistoryOf } from '@qiraa/assessment';
import { loadCatalog } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import type { ChildrenResponse } from '../schemas';

/** The first word of a full Arabic name: a parent's view names the child by first name only. */
export const firstNameOf = (fullNameAr: string) => fullNameAr.trim().split(/\s+/)[0] ?? fullNameAr;

interface Row {
  id: string;
  full_name_ar: string;
  grade: number | null;
  school_name: string | null;
}

/**
 * The caller's linked children (spec: first name, grade level, school name, last-active timestamp), by first
 * name. The grade and school are those of the child's active class (the newest one); last active is the start
 * of the child's latest assessment activity that stands (a voided attempt is out of every read).
 */
export function childrenOf(sql: Sql, parentUserId: number): Promise<ChildrenResponse> {
  return entries(
    sql,
    sql<Row[]>`
      select u.id, u.full_name_ar, c.grade, s.name as school_name
      from parent_students p
      join users u on u.id = p.student_user_id and u.primary_persona = 'STUDENT' and u.disabled_at is null
      ${classAndSchool(sql)}
      where p.parent_user_id = ${parentUserId}
      order by u.full_name_ar, u.id`,
  );
}

/** One child's entry (the PDF's header), whoever asks. */
export async function childEntryOf(sql: Sql, studentId: number): Promise<ChildrenResponse[number]> {
  const [entry] = await entries(
    sql,
    sql<Row[]>`
      select u.id, u.full_name_ar, c.grade, s.name as school_name
      from users u ${classAndSchool(sql)}
      where u.id = ${studentId}`,
  );
  return entry!;
}

/** The child's newest active class's grade and school. */
const classAndSchool = (sql: Sql) => sql`
  left join lateral (
    select cl.grade, cl.school_id from class_students cs join classes cl on cl.id = cs.class_id
    where cs.student_user_id = u.id and cs.active order by cs.created_at desc limit 1
  ) c on true
  left join schools s on s.id = c.school_id`;

async function entries(sql: Sql, query: Promise<Row[]>): Promise<ChildrenResponse> {
  const [rows, catalog] = await Promise.all([query, loadCatalog(sql)]);
  const gradeName = new Map(catalog.grades.map((g) => [g.grade as number, g.nameAr]));
  return Promise.all(
    rows.map(async (r) => {
      const id = Number(r.id);
      const latest = await attemptHistoryOf(sql, { studentId: id, includeVoided: false, after: null, limit: 1 });
      return {
        childId: id,
        firstName: firstNameOf(r.full_name_ar),
        gradeLabel: (r.grade !== null && gradeName.get(r.grade)) || 'المرحلة الأساسية',
        schoolName: r.school_name ?? 'المدرسة',
        lastActiveAt: latest.rows[0]?.startedAt ?? null,
      };
    }),
  );
}
