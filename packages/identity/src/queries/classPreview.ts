import type { Sql } from '@qiraa/db';
import { ApiError, notFound } from '@qiraa/http-kit';

/**
 * What a child sees before typing their quickCode: the class name, grade and school, nothing else (no ids,
 * no roster). A code never issued is 404; a renewed (superseded) or lapsed one (as of the clock's `now`) is 410
 * CLASS_CODE_EXPIRED.
 */
export async function classPreview(sql: Sql, classCode: string, now: Date) {
  const [row] = await sql<{ class_name: string; grade: number; school_name: string; live: boolean }[]>`
    select c.name as class_name, c.grade, s.name as school_name,
           (k.superseded_at is null and k.expires_at > ${now}::timestamptz and c.login_code = k.code) as live
    from class_login_codes k
    join classes c on c.id = k.class_id
    join schools s on s.id = c.school_id
    where k.code = ${classCode}`;
  if (!row) throw notFound('class code');
  if (!row.live) throw new ApiError(410, 'CLASS_CODE_EXPIRED', 'this class login link was renewed or has lapsed');
  return { className: row.class_name, grade: row.grade, schoolName: row.school_name };
}
