import type { AnySql } from '@qiraa/db';
import { permissionDenied } from '@qiraa/http-kit';
import { type Caller, holds, studentClassForTeacher, studentReach } from '@qiraa/identity';

/** Where a teacher's oral attempt with a child happens: the class the caller teaches the child in. */
export interface AttemptPlace {
  readonly organizationId: string;
  readonly schoolId: string;
  readonly classId: string;
  readonly grade: number;
  readonly academicYear: string;
}

/**
 * The tenant and reach rule of recording an oral attempt: an unknown child or one of another organization is
 * 404; anyone but a teacher holding RECORD_TEACHER_ACTION in one of the child's active classes is 403 (an
 * oral read is sat by the teacher with the child; staff read it, they do not record it). The class is the
 * caller's newest class with the child (then the smallest id), so the choice is stable.
 */
export async function teacherPlace(sql: AnySql, caller: Caller, studentId: number): Promise<AttemptPlace> {
  const reached = await studentReach(sql, caller, studentId);
  if (reached.reach !== 'teacher' || !holds(caller, 'RECORD_TEACHER_ACTION')) {
    throw permissionDenied('only a teacher of one of the child’s classes records an oral read');
  }
  const row = await studentClassForTeacher(sql, studentId, caller.userId, true);
  if (!row) throw permissionDenied('only a teacher of one of the child’s classes records an oral read');
  return {
    organizationId: row.organizationId,
    schoolId: row.schoolId,
    classId: row.classId,
    grade: row.grade,
    academicYear: row.academicYear,
  };
}
