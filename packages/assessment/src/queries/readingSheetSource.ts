import { operationalPassage, type SheetPassage } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import { notFound, permissionDenied } from '@qiraa/http-kit';
import { activeStudentName, type Caller, classRecord, inOrganizationOr404, teachesClass } from '@qiraa/identity';

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
  const cls = await classRecord(sql, input.classId);
  inOrganizationOr404(caller, cls?.organizationId, 'class');
  const studentName = await activeStudentName(sql, input.classId, input.studentId);
  if (studentName === undefined) throw notFound('student');
  const passage = await operationalPassage(sql, input.passageId);
  if (!passage || (passage.organizationId !== null && passage.organizationId !== cls!.organizationId)) {
    throw notFound('passage');
  }
  const firstName = studentName.trim().split(/\s+/)[0] ?? '';
  return { classId: input.classId, studentId: input.studentId, firstName, passage };
}

/** Only a teacher of the class (ClassTeacher) prints its children's sheets: anyone else in scope gets 403. */
export async function assertClassTeacher(sql: AnySql, caller: Caller, classId: string): Promise<void> {
  if (!(await teachesClass(sql, classId, caller.userId)))
    throw permissionDenied('only a teacher of the class prints its reading sheets');
}
