import type { TransactionSql } from '@qiraa/db';
import { newClassCode } from '../ids';
import { CLASS_CODE_DAYS } from './createClass';
import type { SchoolPlan } from './planSchool';

/**
 * Writes one school's plan in the caller's transaction, a statement per kind of change (arrays through
 * `unnest`, so a school of 600 children is a dozen round trips, not thousands).
 */
/** `now`: the clock's (new classes' login codes are valid CLASS_CODE_DAYS from it; an ended enrollment's `deactivated_at`). */
export async function applySchoolPlan(
  tx: TransactionSql,
  plan: SchoolPlan,
  organizationId: string,
  now: Date,
): Promise<void> {
  if (plan.school.op === 'create') {
    await tx`insert into schools (id, organization_id, name, country, sourced_id)
             values (${plan.schoolId}, ${organizationId}, ${plan.name}, ${plan.school.country}, ${plan.sourcedId})`;
  } else if (plan.school.op === 'update') {
    await tx`update schools set name = ${plan.name} where id = ${plan.schoolId}`;
  }

  const created = plan.classes.filter((c) => c.op === 'create');
  if (created.length > 0) {
    const codes = created.map(() => newClassCode());
    await tx`
      insert into classes (id, school_id, organization_id, name, grade, academic_year, login_code, login_code_expires_at,
                           sourced_id)
      select id, ${plan.schoolId}, ${organizationId}, name, grade, year, code,
             ${now}::timestamptz + make_interval(days => ${CLASS_CODE_DAYS}), sourced
      from unnest(${created.map((c) => c.id)}::text[], ${created.map((c) => c.input.name)}::text[],
                  ${created.map((c) => c.input.grade)}::int[], ${created.map((c) => c.input.academicYear)}::text[],
                  ${codes}::text[], ${created.map((c) => c.input.sourcedId)}::text[])
           as v(id, name, grade, year, code, sourced)`;
    await tx`
      insert into class_login_codes (code, class_id, issued_at, expires_at)
      select login_code, id, ${now}::timestamptz, login_code_expires_at from classes where id = any(${created.map((c) => c.id)}::text[])`;
  }
  const updated = plan.classes.filter((c) => c.op === 'update');
  if (updated.length > 0) {
    await tx`
      update classes c set name = v.name, grade = v.grade, academic_year = v.year
      from unnest(${updated.map((c) => c.id)}::text[], ${updated.map((c) => c.input.name)}::text[],
                  ${updated.map((c) => c.input.grade)}::int[], ${updated.map((c) => c.input.academicYear)}::text[])
           as v(id, name, grade, year)
      where c.id = v.id`;
  }

  if (plan.newAdults.length > 0) {
    const a = plan.newAdults;
    await tx`
      insert into users (email, full_name_ar, primary_persona, organization_id, school_id, sourced_id)
      select email, name, persona, ${organizationId}, school, sourced
      from unnest(${a.map((x) => x.email)}::text[], ${a.map((x) => x.fullNameAr)}::text[],
                  ${a.map((x) => x.persona)}::text[], ${a.map((x) => x.schoolId)}::text[],
                  ${a.map((x) => x.sourcedId)}::text[]) as v(email, name, persona, school, sourced)`;
  }
  if (plan.changedAdults.length > 0) {
    const a = plan.changedAdults;
    await tx`
      update users u set email = v.email, full_name_ar = v.name, sourced_id = v.sourced
      from unnest(${a.map((x) => String(x.id))}::bigint[], ${a.map((x) => x.email)}::text[],
                  ${a.map((x) => x.fullNameAr)}::text[], ${a.map((x) => x.sourcedId)}::text[]) as v(id, email, name, sourced)
      where u.id = v.id`;
  }

  const newIds = new Map<string, number>();
  if (plan.newStudents.length > 0) {
    const s = plan.newStudents;
    const rows = await tx<{ id: bigint; sourced_id: string }[]>`
      insert into users (full_name_ar, primary_persona, organization_id, gender, sourced_id)
      select name, 'STUDENT', ${organizationId}, gender, sourced
      from unnest(${s.map((x) => x.fullNameAr)}::text[], ${s.map((x) => x.gender)}::text[],
                  ${s.map((x) => x.sourcedId)}::text[]) as v(name, gender, sourced)
      returning id, sourced_id`;
    for (const row of rows) newIds.set(row.sourced_id, Number(row.id));
  }
  if (plan.changedStudents.length > 0) {
    const s = plan.changedStudents;
    await tx`
      update users u set full_name_ar = v.name, gender = v.gender
      from unnest(${s.map((x) => String(x.id))}::bigint[], ${s.map((x) => x.fullNameAr)}::text[],
                  ${s.map((x) => x.gender)}::text[]) as v(id, name, gender)
      where u.id = v.id`;
  }

  if (plan.endEnrollments.length > 0) {
    const e = plan.endEnrollments;
    await tx`
      update class_students cs set active = false, deactivated_at = ${now}
      from unnest(${e.map((x) => x.classId)}::text[], ${e.map((x) => String(x.studentId))}::bigint[]) as v(class_id, student)
      where cs.class_id = v.class_id and cs.student_user_id = v.student and cs.active`;
  }
  if (plan.enrollments.length > 0) {
    const e = plan.enrollments;
    // A child who comes back to a class they left has a deactivated row there: it is enrolled again.
    await tx`
      insert into class_students (class_id, student_user_id, quick_code)
      select class_id, student, code
      from unnest(${e.map((x) => x.classId)}::text[],
                  ${e.map((x) => String(x.studentId ?? newIds.get(x.sourcedId)))}::bigint[],
                  ${e.map((x) => x.quickCode)}::text[]) as v(class_id, student, code)
      on conflict (class_id, student_user_id)
      do update set active = true, quick_code = excluded.quick_code, deactivated_at = null`;
  }

  if (plan.teacherLinks.length > 0) {
    const l = plan.teacherLinks;
    await tx`
      insert into class_teachers (class_id, teacher_user_id)
      select v.class_id, u.id
      from unnest(${l.map((x) => x.classId)}::text[], ${l.map((x) => x.email)}::text[]) as v(class_id, email)
      join users u on u.email = v.email
      on conflict do nothing`;
  }
  if (plan.parentLinks.length > 0) {
    const l = plan.parentLinks;
    await tx`
      insert into parent_students (student_user_id, parent_user_id)
      select s.id, p.id
      from unnest(${l.map((x) => x.sourcedId)}::text[], ${l.map((x) => x.email)}::text[]) as v(sourced, email)
      join users s on s.organization_id = ${organizationId} and s.sourced_id = v.sourced
      join users p on p.email = v.email
      on conflict do nothing`;
  }
}
