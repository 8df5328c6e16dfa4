import type { AnySql } from '@qiraa/db';
import type postgres from 'postgres';

/**
 * Identity's read API for hot reads that must stay one statement: subqueries another context embeds in its
 * own query (`${fragment}` inside its template), so the join costs no extra round trip while identity keeps
 * owning its tables. Each names the columns it selects; those are the contract, the tables behind them are
 * identity's to change. Reads that can afford their own round trip use `reads.ts` instead.
 */
export type IdentityFragment = postgres.PendingQuery<postgres.Row[]>;

/** `(student_id)`: the class's active students. */
export const activeClassRosterQuery = (sql: AnySql, classId: string): IdentityFragment =>
  sql`select cs.student_user_id as student_id from class_students cs where cs.class_id = ${classId} and cs.active`;

/** `(student_id)`: every student active in a class of the school, once even when in two classes. */
export const activeSchoolRosterQuery = (sql: AnySql, schoolId: string): IdentityFragment => sql`
  select distinct cs.student_user_id as student_id
  from class_students cs join classes c on c.id = cs.class_id
  where c.school_id = ${schoolId} and cs.active`;

/** `(today)`: the organization's local date at `now` (its time zone). */
export const organizationTodayQuery = (sql: AnySql, organizationId: string, now: Date): IdentityFragment => sql`
  select (${now}::timestamptz at time zone o.time_zone)::date as today from organizations o where o.id = ${organizationId}`;

/** `(class_id)`: the classes the teacher teaches, only those of `schoolId` when given. */
export const taughtClassesQuery = (
  sql: AnySql,
  teacherUserId: number,
  schoolId: string | null,
): IdentityFragment => sql`
  select c.id as class_id
  from class_teachers t join classes c on c.id = t.class_id
  where t.teacher_user_id = ${teacherUserId} and (${schoolId}::text is null or c.school_id = ${schoolId})`;

/** `(class_id, student_id)`: the active memberships of the classes `classIds` selects (one `class_id` column). */
export const activeMembershipsQuery = (
  sql: AnySql,
  classIds: postgres.PendingQuery<postgres.Row[]>,
): IdentityFragment =>
  sql`select cs.class_id, cs.student_user_id as student_id from class_students cs
      where cs.active and cs.class_id in (${classIds})`;

/** `(class_id)`: the classes the student is active in. */
export const activeClassIdsOfStudentQuery = (sql: AnySql, studentId: number | string): IdentityFragment =>
  sql`select cs.class_id from class_students cs where cs.student_user_id = ${studentId} and cs.active`;

/** `(organization_id)`: the user's organization (a value, or a column of the caller's query). */
export const userOrganizationQuery = (sql: AnySql, userId: number | string | postgres.Fragment): IdentityFragment =>
  sql`select u.organization_id from users u where u.id = ${userId}`;

/** `(id, full_name_ar, gender)`: users' names and gender, to join on a user id (a pulled-up subquery: same plan). */
export const userNamesQuery = (sql: AnySql): IdentityFragment =>
  sql`select u.id, u.full_name_ar, u.gender from users u`;

/** `(time_zone)`: the time zone of the organization a fragment names (a column of the caller's query, or a value). */
export const organizationTimeZoneQuery = (sql: AnySql, organizationId: postgres.Fragment | string): IdentityFragment =>
  sql`select o.time_zone from organizations o where o.id = ${organizationId}`;

/**
 * `(json)`: a student's organization, its time zone, and the newest active class's grade and academic year,
 * as one JSON object (null: not a student, or no active class); a scalar subquery for a statement that reads
 * more at once (training's learner).
 */
export const learnerPlacementJsonQuery = (sql: AnySql, studentId: number): IdentityFragment => sql`
  select json_build_object('organization_id', u.organization_id, 'time_zone', o.time_zone, 'grade', c.grade,
                           'academic_year', c.academic_year)
  from users u
  join organizations o on o.id = u.organization_id
  join class_students s on s.student_user_id = u.id and s.active
  join classes c on c.id = s.class_id
  where u.id = ${studentId} and u.primary_persona = 'STUDENT'
  order by c.academic_year desc, s.created_at desc
  limit 1`;

/** `(student_id)`: every student active in some class. */
export const activeStudentsQuery = (sql: AnySql): IdentityFragment =>
  sql`select cs.student_user_id as student_id from class_students cs where cs.active`;

/** `(class_id, school_id)` of every class: to join a class id to its school. */
export const classSchoolsQuery = (sql: AnySql): IdentityFragment =>
  sql`select c.id as class_id, c.school_id from classes c`;

/** `(id)`: the organizations in this time zone. */
export const organizationsInTimeZoneQuery = (sql: AnySql, timeZone: string): IdentityFragment =>
  sql`select o.id from organizations o where o.time_zone = ${timeZone}`;

/** `(class_id, student_id)`: every active enrolment. */
export const activeEnrolmentsQuery = (sql: AnySql): IdentityFragment =>
  sql`select cs.class_id, cs.student_user_id as student_id from class_students cs where cs.active`;

/** `(student_id)`: the students active in a class the teacher teaches. */
export const taughtStudentsQuery = (sql: AnySql, teacherUserId: number): IdentityFragment => sql`
  select cs.student_user_id as student_id
  from class_students cs join class_teachers t on t.class_id = cs.class_id
  where cs.active and t.teacher_user_id = ${teacherUserId}`;

/**
 * `(id, organization_id, time_zone)` of those of these ids that are students; `ids` is the caller's bigint[]
 * parameter (`sql.array(...)`), so a pipelined read keeps one statement.
 */
export const studentsWithTimeZoneQuery = (sql: AnySql, ids: postgres.Parameter<unknown>): IdentityFragment => sql`
  select u.id, u.organization_id, o.time_zone
  from users u join organizations o on o.id = u.organization_id
  where u.id = any(${ids}::bigint[]) and u.primary_persona = 'STUDENT'`;

/** `(id, time_zone)` of every organization: to join an organization id to its time zone. */
export const organizationTimeZonesQuery = (sql: AnySql): IdentityFragment =>
  sql`select o.id, o.time_zone from organizations o`;
