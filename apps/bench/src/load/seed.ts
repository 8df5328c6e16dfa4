import type { Sql } from '@qiraa/db';
import { assignClassTeacher, createUser } from '@qiraa/identity';
import { BENCH_PASSWORD, bulkSchool, createBenchOrganization } from '../gamification/tenants';

export interface LoadClass {
  id: string;
  loginCode: string;
  teacherEmail: string;
  students: { id: number; quickCode: string }[];
}

export interface LoadWorld {
  organizationId: string;
  schoolId: string;
  adminEmail: string;
  classes: LoadClass[];
}

/** One organization, one school of `students` children in classes of `classSize`, a teacher per class. */
export async function seedLoadWorld(sql: Sql, students: number, classSize: number): Promise<LoadWorld> {
  const org = await createBenchOrganization(sql);
  const school = await bulkSchool(sql, org, 'مدرسة الحمل', students, classSize);
  const classes: LoadClass[] = [];
  for (const [index, classId] of school.classIds.entries()) {
    const teacherEmail = `teacher-${index}-${org.id.slice(-6).toLowerCase()}@load.test`;
    const teacher = await createUser(sql, org.root, {
      primaryPersona: 'TEACHER',
      email: teacherEmail,
      password: BENCH_PASSWORD,
      fullNameAr: 'معلم الصف',
      organizationId: org.id,
    });
    await assignClassTeacher(sql, org.root, classId, teacher.id);
    const [cls] = await sql<{ login_code: string }[]>`select login_code from classes where id = ${classId}`;
    const roster = await sql<{ student_user_id: string; quick_code: string }[]>`
      select student_user_id, quick_code from class_students where class_id = ${classId} order by quick_code`;
    classes.push({
      id: classId,
      loginCode: cls!.login_code,
      teacherEmail,
      students: roster.map((r) => ({ id: Number(r.student_user_id), quickCode: r.quick_code })),
    });
  }
  return { organizationId: org.id, schoolId: school.schoolId, adminEmail: org.adminEmail, classes };
}
