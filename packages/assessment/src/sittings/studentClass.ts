import type { AnySql } from '@qiraa/db';

export interface StudentClass {
  classId: string;
  schoolId: string;
  organizationId: string;
  grade: number;
  academicYear: string;
}

/** The student's active class (the newest enrolment if there were ever two), or null. */
export async function studentClassOf(sql: AnySql, studentId: number): Promise<StudentClass | null> {
  const [row] = await sql<StudentClass[]>`
    select c.id as "classId", c.school_id as "schoolId", c.organization_id as "organizationId", c.grade,
           c.academic_year as "academicYear"
    from class_students s join classes c on c.id = s.class_id
    where s.student_user_id = ${studentId} and s.active
    order by s.created_at desc limit 1`;
  return row ?? null;
}
