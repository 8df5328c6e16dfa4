import { randomBytes } from 'node:crypto';
import type { Sql } from '@qiraa/db';
import {
  type Caller,
  createClass,
  createOrganization,
  createSchool,
  createUser,
  enrollStudent,
  permissionsFor,
  registerFirstAdmin,
} from '@qiraa/identity';

export const BENCH_PASSWORD = 'bench horse battery staple';
const COUNTRY = 'JO';
const ACADEMIC_YEAR = '2026-2027';

export interface BenchOrganization {
  id: string;
  timeZone: string;
  /** An organization ADMIN (MANAGE_ORG, RUN_BACKOFFICE) who logs in through the API. */
  adminEmail: string;
  /** The super-scope administrator as a Caller, for the identity commands. */
  root: Caller;
}

/** The first (super-scope) admin, one organization (default time zone Asia/Amman) and its admin. */
export async function createBenchOrganization(sql: Sql): Promise<BenchOrganization> {
  const tag = randomBytes(3).toString('hex');
  const first = await registerFirstAdmin(sql, {
    email: `root-${tag}@bench.test`,
    password: BENCH_PASSWORD,
    fullNameAr: 'المشرف العام',
  });
  const root: Caller = {
    userId: first.id,
    persona: 'ADMIN',
    organizationId: null,
    schoolId: null,
    permissions: permissionsFor('ADMIN', null),
  };
  const org = await createOrganization(sql, {
    name: 'منظمة القياس',
    slug: `bench-gam-${tag}`,
    country: COUNTRY,
    defaultLocale: 'ar-JO',
  });
  const adminEmail = `admin-${tag}@bench.test`;
  await createUser(sql, root, {
    primaryPersona: 'ADMIN',
    email: adminEmail,
    password: BENCH_PASSWORD,
    fullNameAr: 'مدير المنظمة',
    organizationId: org.id,
  });
  const [row] = await sql<{ time_zone: string }[]>`select time_zone from organizations where id = ${org.id}`;
  return { id: org.id, timeZone: row!.time_zone, adminEmail, root };
}

async function schoolWithClasses(sql: Sql, org: BenchOrganization, name: string, classes: number) {
  const school = await createSchool(sql, org.root, { organizationId: org.id, name, country: COUNTRY });
  const classIds: string[] = [];
  for (let c = 0; c < classes; c++) {
    const cls = await createClass(
      sql,
      org.root,
      {
        schoolId: school.id,
        name: `الصف ${c + 1}`,
        grade: 1 + (c % 4),
        academicYear: ACADEMIC_YEAR,
      },
      // A bench builds tenants on the wall clock: it measures, it decides nothing.
      new Date(),
    );
    classIds.push(cls.id);
  }
  return { schoolId: school.id, classIds };
}

/** A school whose `count` students are enrolled one by one through `enrollStudent` (classes of <= 50). */
export async function enrolledSchool(sql: Sql, org: BenchOrganization, name: string, count: number) {
  const perClass = 50;
  const { schoolId, classIds } = await schoolWithClasses(sql, org, name, Math.ceil(count / perClass));
  const studentIds: number[] = [];
  for (let i = 0; i < count; i++) {
    const classId = classIds[Math.floor(i / perClass)]!;
    const { studentId } = await enrollStudent(
      sql,
      { id: classId, organization_id: org.id },
      { fullNameAr: `طالب ${i}` },
    );
    studentIds.push(studentId);
  }
  return { schoolId, classIds, studentIds };
}

/**
 * A school of `count` students in classes of `classSize`, the rows written in bulk: exactly what
 * `enrollStudent` writes (a STUDENT user of the organization, an active class_students row with the
 * class's next free two-digit quick code), without a transaction per student.
 */
export async function bulkSchool(sql: Sql, org: BenchOrganization, name: string, count: number, classSize: number) {
  const { schoolId, classIds } = await schoolWithClasses(sql, org, name, Math.ceil(count / classSize));
  const users = await sql<{ id: bigint }[]>`
    insert into users (full_name_ar, primary_persona, organization_id)
    select 'طالب ' || g, 'STUDENT', ${org.id} from generate_series(1, ${count}::int) g
    returning id`;
  const studentIds = users.map((u) => Number(u.id)).sort((a, b) => a - b);
  const rows = studentIds.map((id, i) => ({
    class_id: classIds[Math.floor(i / classSize)]!,
    student_user_id: id,
    quick_code: String((i % classSize) + 1).padStart(2, '0'),
  }));
  for (let start = 0; start < rows.length; start += 5000) {
    await sql`insert into class_students ${sql(rows.slice(start, start + 5000), 'class_id', 'student_user_id', 'quick_code')}`;
  }
  return { schoolId, classIds, studentIds };
}
