import { operationalPassage, type SheetPassage } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import { notFound, permissionDenied } from '@qiraa/http-kit';
import { type Caller, inOrganizationOr404 } from '@qiraa/identity';

export interface ReadingSheetScope {
  classId: string;
  studentId: number;
  /** The first word of the child's Arabic name. */
  firstName: string;
  passage: SheetPassage;
}

/**
 * Tenant checks of a reading sheet, every one a 404 (nothing told about another organization): the class
 * in the caller's organization; the student enrolled (active) in that class; an operational passage that
 * is global or the class's organization's.
 */
export async function readingSheetScope(
  sql: AnySql,
  caller: Caller,
  input: { classId: string; studentId: number; passageId: string },
): Promise<ReadingSheetScope> {
  const [cls] = await sql<{ organization_id: string }[]>`
    select organization_id from classes where id = ${input.classId}`;
  inOrganizationOr404(caller, cls?.organization_id, 'class');
  const [student] = await sql<{ full_name_ar: string }[]>`
    select u.full_name_ar from class_students cs join users u on u.id = cs.student_user_id
    where cs.class_id = ${input.classId} and cs.student_user_id = ${input.studentId} and cs.active`;
  if (!student) throw notFound('student');
  const passage = await operationalPassage(sql, input.passageId);
  if (!passage || (passage.organizationId !== null && passage.organizationId !== cls!.organization_id)) {
    throw notFound('passage');
  }
  const firstName = student.full_name_ar.trim().split(/\s+/)[0] ?? '';
  return { classId: input.classId, studentId: input.studentId, firstName, passage };
}

/** Only a teacher of the class (ClassTeacher) prints its children's sheets: anyone else in scope gets 403. */
export async function assertClassTeacher(sql: AnySql, caller: Caller, classId: string): Promise<void> {
  const [taught] = await sql`
    select 1 from class_teachers where class_id = ${classId} and teacher_user_id = ${caller.userId}`;
  if (!taught) throw permissionDenied('only a teacher of the class prints its reading sheets');
}
