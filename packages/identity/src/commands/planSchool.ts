import type { AnySql } from '@qiraa/db';
import {
  type AdultInput,
  type ClassInput,
  emptyCounts,
  type RosterCounts,
  type RosterErrorCode,
  type RosterInput,
  type RowOrigin,
  type SchoolRef,
  type ScopedError,
  type StudentInput,
} from '../engine/rosterTypes';
import type { StudentGender } from '../engine/studentGender';
import { newClassId, newSchoolId } from '../ids';

const MAX_ACTIVE_STUDENTS = 99;
const ALL_CODES = Array.from({ length: 99 }, (_, i) => String(i + 1).padStart(2, '0'));

/** What one school's import writes, decided from the file and the database as it is now. */
export interface SchoolPlan {
  readonly key: string;
  readonly schoolId: string;
  readonly sourcedId: string | null;
  readonly name: string;
  readonly school: { op: 'create'; country: string } | { op: 'update' } | { op: 'unchanged' };
  readonly classes: {
    id: string;
    op: 'create' | 'update' | 'unchanged';
    input: ClassInput;
  }[];
  readonly newStudents: { sourcedId: string; fullNameAr: string; gender: StudentGender | null }[];
  readonly changedStudents: { id: number; fullNameAr: string; gender: StudentGender | null }[];
  /** New enrollments; `studentId` null: a student created by this plan, found by sourcedId. */
  readonly enrollments: { classId: string; studentId: number | null; sourcedId: string; quickCode: string }[];
  /** Active enrollments this plan ends: moves to another class and, when asked, children missing from the file. */
  readonly endEnrollments: { classId: string; studentId: number }[];
  readonly newAdults: {
    email: string;
    sourcedId: string | null;
    fullNameAr: string;
    persona: string;
    schoolId: string | null;
  }[];
  readonly changedAdults: { id: number; email: string; sourcedId: string | null; fullNameAr: string }[];
  readonly teacherLinks: { classId: string; email: string }[];
  readonly parentLinks: { sourcedId: string; email: string }[];
  readonly counts: RosterCounts;
  /** Adults this school plans, by key, with their outcome (an adult shared by schools is counted once). */
  readonly adultOutcomes: Map<string, { persona: string; op: 'create' | 'update' | 'unchanged' }>;
  readonly errors: ScopedError[];
}

export interface PlanContext {
  readonly organizationId: string;
  readonly country: string;
  readonly deactivateMissing: boolean;
}

interface StoredUser {
  id: bigint;
  sourced_id: string | null;
  email: string | null;
  full_name_ar: string;
  gender: StudentGender | null;
  primary_persona: string;
  organization_id: string | null;
}

/**
 * Plans one school of a roster file against the database (call it inside the school's transaction for a
 * real run, so what it read is what it writes). Row problems found here (a quickCode taken, a full class,
 * an email of another account) are returned as errors; a plan with errors is not applied.
 */
export async function planSchool(
  sql: AnySql,
  input: RosterInput,
  ref: SchoolRef,
  ctx: PlanContext,
): Promise<SchoolPlan> {
  const errors: ScopedError[] = [];
  const fail = (origin: RowOrigin, field: string | null, code: RosterErrorCode, message: string) =>
    errors.push({ file: origin.file, line: origin.line, field, code, message, schoolKeys: [ref.key] });
  const counts = emptyCounts();

  // The school.
  let schoolId: string;
  let school: SchoolPlan['school'];
  let name: string;
  let sourcedId: string | null = null;
  if (ref.kind === 'id') {
    const [row] = await sql<{ name: string; organization_id: string }[]>`
      select name, organization_id from schools where id = ${ref.schoolId}`;
    // Another organization's school reads exactly like a missing one (the tenant rule).
    if (!row || row.organization_id !== ctx.organizationId) {
      fail(ref.origin, 'schoolId', 'school_not_found', 'no school with this id in the organization');
      return emptyPlan(ref, errors);
    }
    schoolId = ref.schoolId;
    name = row.name;
    school = { op: 'unchanged' };
  } else {
    sourcedId = ref.sourcedId;
    name = ref.name;
    const rows = await sql<{ id: string; name: string; organization_id: string }[]>`
      select id, name, organization_id from schools where sourced_id = ${ref.sourcedId}`;
    const own = rows.find((r) => r.organization_id === ctx.organizationId);
    if (own) {
      schoolId = own.id;
      school = own.name === ref.name ? { op: 'unchanged' } : { op: 'update' };
    } else if (rows.length > 0) {
      fail(
        ref.origin,
        'sourcedId',
        'school_not_in_organization',
        'this school sourcedId belongs to another organization',
      );
      return emptyPlan(ref, errors);
    } else {
      schoolId = newSchoolId();
      school = { op: 'create', country: ctx.country };
    }
  }
  counts.schools[school.op] += 1;

  // Classes of this school in the file.
  const fileClasses = input.classes.filter((c) => c.schoolKey === ref.key);
  const storedClasses = await sql<
    { id: string; school_id: string; sourced_id: string | null; name: string; grade: number; academic_year: string }[]
  >`
    select id, school_id, sourced_id, name, grade, academic_year from classes
    where school_id = ${schoolId}
       or (organization_id = ${ctx.organizationId}
           and sourced_id = any(${fileClasses.flatMap((c) => (c.sourcedId ? [c.sourcedId] : []))}::text[]))`;
  const classes: SchoolPlan['classes'] = [];
  const classIdOfKey = new Map<string, string>();
  for (const c of fileClasses) {
    const stored = c.sourcedId
      ? storedClasses.find((s) => s.sourced_id === c.sourcedId)
      : storedClasses.find((s) => s.school_id === schoolId && s.name === c.name && s.academic_year === c.academicYear);
    if (stored && stored.school_id !== schoolId) {
      fail(c.origin, 'schoolSourcedId', 'conflicting_values', 'this class belongs to another school of the service');
      continue;
    }
    const op = !stored
      ? 'create'
      : stored.name !== c.name || stored.grade !== c.grade || stored.academic_year !== c.academicYear
        ? 'update'
        : 'unchanged';
    const id = stored?.id ?? newClassId();
    classes.push({ id, op, input: c });
    classIdOfKey.set(c.key, id);
    counts.classes[op] += 1;
  }

  // Students of those classes.
  const fileStudents = input.students.filter((s) => classIdOfKey.has(s.classKey));
  const storedStudents = await sql<StoredUser[]>`
    select id, sourced_id, email, full_name_ar, gender, primary_persona, organization_id from users
    where organization_id = ${ctx.organizationId} and sourced_id = any(${fileStudents.map((s) => s.sourcedId)}::text[])`;
  const studentBySourced = new Map(storedStudents.map((u) => [u.sourced_id!, u]));
  const schoolClassIds = [
    ...new Set([...classIdOfKey.values(), ...storedClasses.filter((c) => c.school_id === schoolId).map((c) => c.id)]),
  ];
  const active = await sql<
    { class_id: string; student_user_id: bigint; quick_code: string; sourced_id: string | null }[]
  >`
    select cs.class_id, cs.student_user_id, cs.quick_code, u.sourced_id
    from class_students cs join users u on u.id = cs.student_user_id
    where cs.active and (cs.class_id = any(${schoolClassIds}::text[])
                         or cs.student_user_id = any(${storedStudents.map((u) => String(u.id))}::bigint[]))`;
  const taken = new Map<string, Set<string>>();
  for (const id of classIdOfKey.values()) taken.set(id, new Set());
  for (const row of active) taken.get(row.class_id)?.add(row.quick_code);

  const newStudents: SchoolPlan['newStudents'] = [];
  const changedStudents: SchoolPlan['changedStudents'] = [];
  const enrollments: SchoolPlan['enrollments'] = [];
  const endEnrollments: SchoolPlan['endEnrollments'] = [];
  const pending: { student: StudentInput; classId: string; studentId: number | null; keep: string | null }[] = [];
  for (const s of fileStudents) {
    const classId = classIdOfKey.get(s.classKey)!;
    const stored = studentBySourced.get(s.sourcedId);
    if (stored && stored.primary_persona !== 'STUDENT') {
      fail(s.origin, 'sourcedId', 'conflicting_values', 'this id belongs to an adult of the organization');
      continue;
    }
    const gender = s.gender === undefined ? (stored?.gender ?? null) : s.gender;
    let changed = false;
    if (!stored) newStudents.push({ sourcedId: s.sourcedId, fullNameAr: s.fullNameAr, gender });
    else if (stored.full_name_ar !== s.fullNameAr || stored.gender !== gender) {
      changedStudents.push({ id: Number(stored.id), fullNameAr: s.fullNameAr, gender });
      changed = true;
    }
    const own = stored ? active.filter((a) => a.student_user_id === stored.id) : [];
    const here = own.find((a) => a.class_id === classId);
    if (here) {
      if (s.quickCode !== null && s.quickCode !== here.quick_code) {
        fail(
          s.origin,
          'quickCode',
          'quick_code_changed',
          `the child's quickCode is ${here.quick_code}; it is never reassigned`,
        );
        continue;
      }
    } else {
      // A move: the old enrollments end, the child keeps the old code where it is free in the new class.
      for (const old of own) endEnrollments.push({ classId: old.class_id, studentId: Number(old.student_user_id) });
      pending.push({
        student: s,
        classId,
        studentId: stored ? Number(stored.id) : null,
        keep: own[0]?.quick_code ?? null,
      });
      changed ||= stored !== undefined;
    }
    if (stored) counts.students[changed ? 'update' : 'unchanged'] += 1;
    else counts.students.create += 1;
  }
  // Given codes first, so an assigned code never takes one the file names.
  pending.sort((a, b) => Number(b.student.quickCode !== null) - Number(a.student.quickCode !== null));
  for (const p of pending) {
    const codes = taken.get(p.classId)!;
    let code = p.student.quickCode;
    if (code !== null && codes.has(code)) {
      fail(p.student.origin, 'quickCode', 'quick_code_taken', 'another active child of this class has this quickCode');
      continue;
    }
    if (code === null)
      code = p.keep !== null && !codes.has(p.keep) ? p.keep : (ALL_CODES.find((c) => !codes.has(c)) ?? null);
    if (code === null || codes.size >= MAX_ACTIVE_STUDENTS) {
      fail(p.student.origin, 'classSourcedId', 'class_full', 'a class holds at most 99 active children');
      continue;
    }
    codes.add(code);
    enrollments.push({ classId: p.classId, studentId: p.studentId, sourcedId: p.student.sourcedId, quickCode: code });
  }

  // Children of this school's classes that the file no longer names.
  if (ctx.deactivateMissing) {
    const named = new Set(input.students.map((s) => s.sourcedId));
    for (const row of active) {
      if (!schoolClassIds.includes(row.class_id) || (row.sourced_id !== null && named.has(row.sourced_id))) continue;
      endEnrollments.push({ classId: row.class_id, studentId: Number(row.student_user_id) });
      counts.students.deactivate += 1;
    }
  }

  // Adults this school needs: its teachers, its principal, its children's parents.
  const studentKeys = new Set(fileStudents.map((s) => s.sourcedId));
  const teacherLinksIn = input.teacherLinks.filter((l) => classIdOfKey.has(l.classKey));
  const parentLinksIn = input.parentLinks.filter((l) => studentKeys.has(l.studentSourcedId));
  const adultKeys = new Set([
    ...teacherLinksIn.map((l) => l.adultKey),
    ...parentLinksIn.map((l) => l.adultKey),
    ...input.adults.filter((a) => a.schoolKey === ref.key).map((a) => a.key),
  ]);
  const adultsIn = input.adults.filter((a) => adultKeys.has(a.key));
  const adultPlan = await planAdults(sql, adultsIn, ctx, schoolId, fail);

  const storedTeacherLinks = await sql<{ class_id: string; email: string }[]>`
    select ct.class_id, u.email from class_teachers ct join users u on u.id = ct.teacher_user_id
    where ct.class_id = any(${[...classIdOfKey.values()]}::text[])`;
  const haveTeacher = new Set(storedTeacherLinks.map((l) => `${l.class_id}\u0000${l.email}`));
  const teacherLinks: SchoolPlan['teacherLinks'] = [];
  for (const link of teacherLinksIn) {
    const email = adultPlan.emailOf.get(link.adultKey);
    if (!email) continue;
    const classId = classIdOfKey.get(link.classKey)!;
    const key = `${classId}\u0000${email}`;
    if (haveTeacher.has(key)) counts.classTeachers.unchanged += 1;
    else {
      haveTeacher.add(key);
      teacherLinks.push({ classId, email });
      counts.classTeachers.create += 1;
    }
  }
  const storedParentLinks = await sql<{ sourced_id: string; email: string }[]>`
    select s.sourced_id, p.email from parent_students ps
    join users s on s.id = ps.student_user_id join users p on p.id = ps.parent_user_id
    where s.organization_id = ${ctx.organizationId} and s.sourced_id = any(${[...studentKeys]}::text[])`;
  const haveParent = new Set(storedParentLinks.map((l) => `${l.sourced_id}\u0000${l.email}`));
  const parentLinks: SchoolPlan['parentLinks'] = [];
  for (const link of parentLinksIn) {
    const email = adultPlan.emailOf.get(link.adultKey);
    if (!email) continue;
    const key = `${link.studentSourcedId}\u0000${email}`;
    if (haveParent.has(key)) counts.parentLinks.unchanged += 1;
    else {
      haveParent.add(key);
      parentLinks.push({ sourcedId: link.studentSourcedId, email });
      counts.parentLinks.create += 1;
    }
  }

  return {
    key: ref.key,
    schoolId,
    sourcedId,
    name,
    school,
    classes,
    newStudents,
    changedStudents,
    enrollments,
    endEnrollments,
    newAdults: adultPlan.newAdults,
    changedAdults: adultPlan.changedAdults,
    teacherLinks,
    parentLinks,
    counts,
    adultOutcomes: adultPlan.outcomes,
    errors,
  };
}

async function planAdults(
  sql: AnySql,
  adults: AdultInput[],
  ctx: PlanContext,
  schoolId: string,
  fail: (origin: RowOrigin, field: string | null, code: RosterErrorCode, message: string) => void,
) {
  const stored = await sql<StoredUser[]>`
    select id, sourced_id, email, full_name_ar, gender, primary_persona, organization_id from users
    where email = any(${adults.map((a) => a.email)}::text[])
       or (organization_id = ${ctx.organizationId}
           and sourced_id = any(${adults.flatMap((a) => (a.sourcedId ? [a.sourcedId] : []))}::text[]))`;
  const newAdults: SchoolPlan['newAdults'] = [];
  const changedAdults: SchoolPlan['changedAdults'] = [];
  const emailOf = new Map<string, string>();
  const outcomes: SchoolPlan['adultOutcomes'] = new Map();
  for (const a of adults) {
    const bySourced = a.sourcedId
      ? stored.find((u) => u.organization_id === ctx.organizationId && u.sourced_id === a.sourcedId)
      : undefined;
    const byEmail = stored.find((u) => u.email === a.email);
    const match = bySourced ?? byEmail;
    if (byEmail && match !== byEmail) {
      fail(a.origin, 'email', 'email_in_use', 'another account has this email');
      continue;
    }
    if (match && (match.organization_id !== ctx.organizationId || match.primary_persona !== a.persona)) {
      fail(a.origin, 'email', 'email_in_use', 'an account of another organization or role has this email');
      continue;
    }
    let op: 'create' | 'update' | 'unchanged';
    if (!match) {
      op = 'create';
      newAdults.push({
        email: a.email,
        sourcedId: a.sourcedId,
        fullNameAr: a.fullNameAr,
        persona: a.persona,
        schoolId: a.persona === 'PRINCIPAL' ? schoolId : null,
      });
    } else {
      // The simple format names parents by email only: it never renames an existing parent.
      const fullNameAr = a.sourcedId ? a.fullNameAr : match.full_name_ar;
      const sourcedId = a.sourcedId ?? match.sourced_id;
      op =
        match.email !== a.email || match.full_name_ar !== fullNameAr || match.sourced_id !== sourcedId
          ? 'update'
          : 'unchanged';
      if (op === 'update') changedAdults.push({ id: Number(match.id), email: a.email, sourcedId, fullNameAr });
    }
    emailOf.set(a.key, a.email);
    outcomes.set(a.key, { persona: a.persona, op });
  }
  return { newAdults, changedAdults, emailOf, outcomes };
}

function emptyPlan(ref: SchoolRef, errors: ScopedError[]): SchoolPlan {
  return {
    key: ref.key,
    schoolId: ref.kind === 'id' ? ref.schoolId : '',
    sourcedId: ref.kind === 'sourced' ? ref.sourcedId : null,
    name: ref.kind === 'sourced' ? ref.name : '',
    school: { op: 'unchanged' },
    classes: [],
    newStudents: [],
    changedStudents: [],
    enrollments: [],
    endEnrollments: [],
    newAdults: [],
    changedAdults: [],
    teacherLinks: [],
    parentLinks: [],
    counts: emptyCounts(),
    adultOutcomes: new Map(),
    errors,
  };
}
