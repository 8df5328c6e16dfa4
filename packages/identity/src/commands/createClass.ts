import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import type { Caller } from '../engine/caller';
import { newClassCode, newClassId } from '../ids';
import { toClassResponse } from '../queries/classResponse';
import { type ClassRow, inOrganizationOr404, unprocessableField } from '../queries/scope';

/** A class code is valid this long from minting or rotation. */
export const CLASS_CODE_DAYS = 365;

/** `YYYY-YYYY` with consecutive years, e.g. 2026-2027. */
export function isAcademicYear(value: string): boolean {
  const match = /^(\d{4})-(\d{4})$/.exec(value);
  return Boolean(match && Number(match[2]) === Number(match[1]) + 1);
}

export async function createClass(
  sql: Sql,
  caller: Caller,
  input: { schoolId: string; name: string; grade: number; academicYear: string },
  /** The clock's now: the login code is valid CLASS_CODE_DAYS from it. */
  now: Date,
) {
  const [school] = await sql<
    { organization_id: string }[]
  >`select organization_id from schools where id = ${input.schoolId}`;
  inOrganizationOr404(caller, school?.organization_id, 'school');
  if (!isAcademicYear(input.academicYear)) {
    throw unprocessableField('academicYear', 'must be YYYY-YYYY with consecutive years');
  }
  const id = newClassId();
  const code = newClassCode();
  const row = (await inTransaction(sql, async ({ sql: tx }) => {
    const [created] = await tx<ClassRow[]>`
      insert into classes (id, school_id, organization_id, name, grade, academic_year, login_code, login_code_expires_at)
      values (${id}, ${input.schoolId}, ${school!.organization_id}, ${input.name}, ${input.grade}, ${input.academicYear},
              ${code}, ${now}::timestamptz + make_interval(days => ${CLASS_CODE_DAYS}))
      returning *`;
    await tx`insert into class_login_codes (code, class_id, issued_at, expires_at)
             values (${code}, ${id}, ${now}, ${created!.login_code_expires_at})`;
    return created!;
  })) as ClassRow;
  return toClassResponse(row);
}
