import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { conflict, notFound } from '@qiraa/http-kit';
import { normalizePersonName } from '@qiraa/kernel';
import type { StudentGender } from '../engine/studentGender';
import type { ClassRow } from '../queries/scope';

export const MAX_ACTIVE_STUDENTS = 99;
const ALL_CODES = Array.from({ length: 99 }, (_, i) => String(i + 1).padStart(2, '0'));

/**
 * Adds a student to a class with a permanent two-digit quickCode, unique among the class's active
 * students: the given one, or the lowest free one. The class row is locked so two enrollments never
 * pick the same code or exceed 99, and an enrollment that waited for a class delete finds it gone (404).
 * The name is stored normalised (PersonName: trimmed, one space), so payloads naming the child accept it.
 */
export async function enrollStudent(
  sql: Sql,
  cls: Pick<ClassRow, 'id' | 'organization_id'>,
  input: { fullNameAr: string; quickCode?: string; gender?: StudentGender },
): Promise<{ studentId: number; quickCode: string }> {
  return (await inTransaction(sql, async ({ sql: tx }) => {
    const [locked] = await tx`select 1 from classes where id = ${cls.id} for update`;
    if (!locked) throw notFound('class');
    const taken = new Set(
      (
        await tx<{ quick_code: string }[]>`select quick_code from class_students where class_id = ${cls.id} and active`
      ).map((r) => r.quick_code),
    );
    if (taken.size >= MAX_ACTIVE_STUDENTS) throw conflict('class_full', 'a class holds at most 99 active students');
    if (input.quickCode && taken.has(input.quickCode)) {
      throw conflict('quick_code_taken', 'another active student of this class has this quickCode');
    }
    const quickCode = input.quickCode ?? ALL_CODES.find((code) => !taken.has(code))!;
    const [user] = await tx<{ id: bigint }[]>`
      insert into users (full_name_ar, primary_persona, organization_id, gender)
      values (${normalizePersonName(input.fullNameAr)}, 'STUDENT', ${cls.organization_id}, ${input.gender ?? null}) returning id`;
    await tx`insert into class_students (class_id, student_user_id, quick_code)
             values (${cls.id}, ${user!.id}, ${quickCode})`;
    return { studentId: Number(user!.id), quickCode };
  })) as { studentId: number; quickCode: string };
}
