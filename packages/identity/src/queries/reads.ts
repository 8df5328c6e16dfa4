import type { AnySql } from '@qiraa/db';

/**
 * Identity's read API: what other contexts need to know of users, classes, schools and organizations, so that no
 * context queries identity's tables (docs/architecture.md, "Who owns which table"). Each function is one small
 * query named for its question; tenant rules stay with the caller (`inOrganizationOr404`, `reachOr404`).
 */

/** The organization of each of these ids that is a student (one entry per student found; unknown ids: none). */
export async function studentOrganizations(sql: AnySql, studentIds: readonly string[]): Promise<string[]> {
  const rows = await sql<{ organization_id: string }[]>`
    select organization_id from users
    where id = any(${sql.array([...studentIds], 20)}::bigint[]) and primary_persona = 'STUDENT'`;
  return rows.map((r) => r.organization_id);
}

export interface ClassRecord {
  id: string;
  organizationId: string;
  schoolId: string;
  grade: number;
  academicYear: string;
}

/** A class's organization, school, grade and academic year (undefined: no such class). */
export async function classRecord(sql: AnySql, classId: string): Promise<ClassRecord | undefined> {
  const [cls] = await sql<ClassRecord[]>`
    select c.id, c.organization_id as "organizationId", c.school_id as "schoolId", c.grade,
           c.academic_year as "academicYear"
    from classes c where c.id = ${classId}`;
  return cls;
}

/** A class (as classRecord), and whether this user teaches it (undefined: no such class). */
export async function classPlacement(
  sql: AnySql,
  classId: string,
  teacherUserId: number,
): Promise<(ClassRecord & { teaches: boolean }) | undefined> {
  const [cls] = await sql<(ClassRecord & { teaches: boolean })[]>`
    select c.id, c.organization_id as "organizationId", c.school_id as "schoolId", c.grade,
           c.academic_year as "academicYear",
           exists (select 1 from class_teachers t where t.class_id = c.id and t.teacher_user_id = ${teacherUserId})
             as teaches
    from classes c where c.id = ${classId}`;
  return cls;
}

/** The full name of a student active in the class (undefined: not an active student of it). */
export async function activeStudentName(sql: AnySql, classId: string, studentId: number): Promise<string | undefined> {
  const [student] = await sql<{ full_name_ar: string }[]>`
    select u.full_name_ar from class_students cs join users u on u.id = cs.student_user_id
    where cs.class_id = ${classId} and cs.student_user_id = ${studentId} and cs.active`;
  return student?.full_name_ar;
}

/** Those of these ids that are students (of the organization, when one is given). */
export async function studentsInOrganization(
  sql: AnySql,
  studentIds: readonly number[],
  organizationId: string | null,
): Promise<Set<number>> {
  const rows = await sql<{ id: bigint }[]>`
    select id from users
    where id = any(${sql.array(studentIds.map(String))}::bigint[]) and primary_persona = 'STUDENT'
      and (${organizationId}::text is null or organization_id = ${organizationId})`;
  return new Set(rows.map((r) => Number(r.id)));
}

/** A teacher's organization, and whether they teach a class of this school (undefined: no such teacher). */
export async function teacherPlacement(
  sql: AnySql,
  teacherUserId: number,
  schoolId: string | null,
): Promise<{ organizationId: string; teachesInSchool: boolean } | undefined> {
  const [teacher] = await sql<{ organization_id: string; teaches_in_school: boolean }[]>`
    select u.organization_id,
      exists (
        select 1 from class_teachers t join classes c on c.id = t.class_id
        where t.teacher_user_id = u.id and c.school_id = ${schoolId}
      ) as teaches_in_school
    from users u where u.id = ${teacherUserId} and u.primary_persona = 'TEACHER'`;
  return teacher && { organizationId: teacher.organization_id, teachesInSchool: teacher.teaches_in_school };
}

/** A school's organization (undefined: no such school). */
export async function schoolOrganization(sql: AnySql, schoolId: string): Promise<string | undefined> {
  const [school] = await sql<{ organization_id: string }[]>`select organization_id from schools where id = ${schoolId}`;
  return school?.organization_id;
}

/** Whether this user is one of the class's teachers. */
export async function teachesClass(sql: AnySql, classId: string, teacherUserId: number): Promise<boolean> {
  const [held] = await sql`
    select 1 from class_teachers where class_id = ${classId} and teacher_user_id = ${teacherUserId}`;
  return held !== undefined;
}

/** A user's organization (null: unknown user, or one of no organization). */
export async function userOrganization(sql: AnySql, userId: number | string): Promise<string | null> {
  const [user] = await sql<
    { organization_id: string | null }[]
  >`select organization_id from users where id = ${userId}`;
  return user?.organization_id ?? null;
}

/** An organization's time zone (undefined: no such organization). */
export async function organizationTimeZone(sql: AnySql, organizationId: string): Promise<string | undefined> {
  const [org] = await sql<{ time_zone: string }[]>`select time_zone from organizations where id = ${organizationId}`;
  return org?.time_zone;
}

/** The time zone of a user's organization (undefined: unknown user, or of no organization). */
export async function userTimeZone(sql: AnySql, userId: number | string): Promise<string | undefined> {
  const [org] = await sql<{ time_zone: string | null }[]>`
    select o.time_zone from users u join organizations o on o.id = u.organization_id where u.id = ${userId}`;
  return org?.time_zone ?? undefined;
}

/** The time zones of the organizations not disabled, each once, sorted. */
export async function activeTimeZones(sql: AnySql): Promise<string[]> {
  const rows = await sql<{ time_zone: string }[]>`
    select distinct time_zone from organizations where disabled_at is null order by time_zone`;
  return rows.map((r) => r.time_zone);
}

/** The organizations not disabled, by id, with their time zones. */
export async function activeOrganizations(sql: AnySql): Promise<{ id: string; timeZone: string }[]> {
  const rows = await sql<{ id: string; time_zone: string }[]>`
    select id, time_zone from organizations where disabled_at is null order by id`;
  return rows.map((r) => ({ id: r.id, timeZone: r.time_zone }));
}

/** Those of these schools that belong to the organization. */
export async function schoolsOfOrganization(
  sql: AnySql,
  schoolIds: readonly string[],
  organizationId: string,
): Promise<Set<string>> {
  const rows = await sql<{ id: string }[]>`
    select id from schools where id = any(${[...schoolIds]}) and organization_id = ${organizationId}`;
  return new Set(rows.map((r) => r.id));
}

/** A user's persona and organization, and whether the user or their organization is disabled (undefined: unknown). */
export async function userStanding(
  sql: AnySql,
  userId: number,
): Promise<
  { persona: string; organizationId: string | null; disabled: boolean; organizationDisabled: boolean } | undefined
> {
  const [user] = await sql<
    { primary_persona: string; organization_id: string | null; disabled: boolean; org_disabled: boolean }[]
  >`
    select u.primary_persona, u.organization_id, u.disabled_at is not null as disabled,
           coalesce(o.disabled_at is not null, false) as org_disabled
    from users u left join organizations o on o.id = u.organization_id
    where u.id = ${userId}`;
  return (
    user && {
      persona: user.primary_persona,
      organizationId: user.organization_id,
      disabled: user.disabled,
      organizationDisabled: user.org_disabled,
    }
  );
}

/** The teachers of a class, by user id. */
export async function classTeachers(sql: AnySql, classId: string): Promise<number[]> {
  const rows = await sql<{ id: string }[]>`
    select teacher_user_id as id from class_teachers where class_id = ${classId} order by teacher_user_id`;
  return rows.map((r) => Number(r.id));
}

/** The teachers of a student's active classes, each once, by user id. */
export async function teachersOfStudent(sql: AnySql, studentId: number): Promise<number[]> {
  const rows = await sql<{ id: string }[]>`
    select distinct ct.teacher_user_id as id
    from class_students cs join class_teachers ct on ct.class_id = cs.class_id
    where cs.student_user_id = ${studentId} and cs.active order by 1`;
  return rows.map((r) => Number(r.id));
}

/** The parents linked to a student, by user id. */
export async function parentsOfStudent(sql: AnySql, studentId: number): Promise<number[]> {
  const rows = await sql<{ id: string }[]>`
    select parent_user_id as id from parent_students where student_user_id = ${studentId} order by 1`;
  return rows.map((r) => Number(r.id));
}

/** A class's active students, by user id, in id order. */
export async function classRoster(sql: AnySql, classId: string): Promise<number[]> {
  const rows = await sql<{ id: string }[]>`
    select student_user_id::text as id from class_students where class_id = ${classId} and active
    order by student_user_id`;
  return rows.map((r) => Number(r.id));
}

/** A student's active classes, in class id order, each with the student's full name. */
export async function activeClassesOfStudent(
  sql: AnySql,
  studentId: number | string,
): Promise<{ classId: string; studentName: string }[]> {
  const rows = await sql<{ class_id: string; full_name_ar: string }[]>`
    select cs.class_id, u.full_name_ar from class_students cs join users u on u.id = cs.student_user_id
    where cs.student_user_id = ${studentId} and cs.active order by cs.class_id`;
  return rows.map((r) => ({ classId: r.class_id, studentName: r.full_name_ar }));
}

/** The enabled administrators of an organization, by user id. */
export async function organizationAdmins(sql: AnySql, organizationId: string | null): Promise<number[]> {
  const rows = await sql<{ id: string }[]>`
    select id::text from users
    where organization_id = ${organizationId} and primary_persona = 'ADMIN' and disabled_at is null order by id`;
  return rows.map((r) => Number(r.id));
}

/** A user's full name (undefined: unknown user). */
export async function userName(sql: AnySql, userId: number | string): Promise<string | undefined> {
  const [user] = await sql<{ full_name_ar: string }[]>`select full_name_ar from users where id = ${userId}`;
  return user?.full_name_ar;
}

/** The full names of these users (unknown ids: absent). */
export async function userNames(sql: AnySql, userIds: readonly number[]): Promise<Map<number, string>> {
  const rows = await sql<{ id: string; name: string }[]>`
    select id::text, full_name_ar as name from users
    where id = any(${sql.array(
      userIds.map((id) => String(id)),
      20,
    )}::bigint[])`;
  return new Map(rows.map((n) => [Number(n.id), n.name]));
}

/** For each of these students, the active classes of theirs that this teacher holds, with their organization and school. */
export async function taughtClassesOfStudents(
  sql: AnySql,
  teacherUserId: number,
  studentIds: readonly number[],
): Promise<{ studentId: number; classId: string; organizationId: string; schoolId: string }[]> {
  const rows = await sql<{ student_id: string; class_id: string; organization_id: string; school_id: string }[]>`
    select cs.student_user_id::text as student_id, c.id as class_id, c.organization_id, c.school_id
    from class_students cs
      join classes c on c.id = cs.class_id
      join class_teachers t on t.class_id = c.id and t.teacher_user_id = ${teacherUserId}
    where cs.active and cs.student_user_id = any(${sql.array(studentIds.map(String), 20)}::bigint[])`;
  return rows.map((r) => ({
    studentId: Number(r.student_id),
    classId: r.class_id,
    organizationId: r.organization_id,
    schoolId: r.school_id,
  }));
}

/** A child as a parent's view names it: full name, and the grade and school of the newest active class. */
export interface ChildPlacement {
  id: string;
  full_name_ar: string;
  grade: number | null;
  school_name: string | null;
}

const newestClassAndSchool = (sql: AnySql) => sql`
  left join lateral (
    select cl.grade, cl.school_id from class_students cs join classes cl on cl.id = cs.class_id
    where cs.student_user_id = u.id and cs.active order by cs.created_at desc limit 1
  ) c on true
  left join schools s on s.id = c.school_id`;

/** The parent's linked children that are enabled students, by full name (then id). */
export function childrenOfParent(sql: AnySql, parentUserId: number): Promise<ChildPlacement[]> {
  return sql<ChildPlacement[]>`
    select u.id, u.full_name_ar, c.grade, s.name as school_name
    from parent_students p
    join users u on u.id = p.student_user_id and u.primary_persona = 'STUDENT' and u.disabled_at is null
    ${newestClassAndSchool(sql)}
    where p.parent_user_id = ${parentUserId}
    order by u.full_name_ar, u.id`;
}

/** One student as `childrenOfParent` lists them, whoever asks (no row: no such user). */
export function studentPlacement(sql: AnySql, studentId: number): Promise<ChildPlacement[]> {
  return sql<ChildPlacement[]>`
    select u.id, u.full_name_ar, c.grade, s.name as school_name
    from users u ${newestClassAndSchool(sql)}
    where u.id = ${studentId}`;
}

/** A class as a student's placement: its organization, school, grade and academic year. */
export interface StudentClassPlacement {
  classId: string;
  schoolId: string;
  organizationId: string;
  grade: number;
  academicYear: string;
}

/** The student's active class (the newest enrolment if there were ever two), or null. */
export async function newestActiveClassOfStudent(
  sql: AnySql,
  studentId: number,
): Promise<StudentClassPlacement | null> {
  const [row] = await sql<StudentClassPlacement[]>`
    select c.id as "classId", c.school_id as "schoolId", c.organization_id as "organizationId", c.grade,
           c.academic_year as "academicYear"
    from class_students s join classes c on c.id = s.class_id
    where s.student_user_id = ${studentId} and s.active
    order by s.created_at desc limit 1`;
  return row ?? null;
}

/**
 * One of the student's active classes: one the teacher teaches first when `onlyTaught` is false (then any),
 * only those when true; the newest academic year, then the smallest id, so the choice is stable. Null: none.
 */
export async function studentClassForTeacher(
  sql: AnySql,
  studentId: number,
  teacherUserId: number,
  onlyTaught: boolean,
): Promise<StudentClassPlacement | null> {
  const [row] = await sql<StudentClassPlacement[]>`
    select c.id as "classId", c.school_id as "schoolId", c.organization_id as "organizationId", c.grade,
           c.academic_year as "academicYear"
    from class_students s join classes c on c.id = s.class_id
    where s.student_user_id = ${studentId} and s.active
      ${onlyTaught ? sql`and exists (select 1 from class_teachers t where t.class_id = c.id and t.teacher_user_id = ${teacherUserId})` : sql``}
    order by exists (select 1 from class_teachers t where t.class_id = c.id and t.teacher_user_id = ${teacherUserId}) desc,
             c.academic_year desc, c.id
    limit 1`;
  return row ?? null;
}

/** The class's active, enabled students with their first names, by full name then id. */
export function activeClassFirstNames(sql: AnySql, classId: string) {
  return sql<{ student_id: string; first_name: string }[]>`
    select u.id as student_id, split_part(btrim(u.full_name_ar), ' ', 1) as first_name
    from class_students s join users u on u.id = s.student_user_id
    where s.class_id = ${classId} and s.active and u.disabled_at is null
    order by u.full_name_ar, u.id`;
}
