import { client } from './http';
import type { TestApp } from './testApp';

export const PASSWORD = 'correct horse battery';

export interface Org {
  id: string;
  schoolId: string;
  otherSchoolId: string;
  classId: string;
  otherClassId: string;
  classCode: string;
  adminToken: string;
  teacherId: number;
  teacherToken: string;
  otherTeacherToken: string;
  principalToken: string;
  managerToken: string;
  parentId: number;
  parentToken: string;
  studentId: number;
  studentQuickCode: string;
  studentToken: string;
}

export interface World {
  superToken: string;
  a: Org;
  b: Org;
}

async function ok<T>(response: Promise<{ statusCode: number; json(): T; body: string }>, status = 201): Promise<T> {
  const res = await response;
  // A plain throw, not vitest's expect: the fuzz CLI builds this world outside vitest.
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
  return res.json();
}

/**
 * Two organizations built through the HTTP API, each with two schools, a class per school, and one user of
 * every persona (the teacher holds `classId`, the other teacher `otherClassId`; the parent is linked to
 * the student of `classId`; the principal heads `schoolId`).
 */
export async function buildWorld(t: Pick<TestApp, 'app'>): Promise<World> {
  const anon = client(t.app);
  const registered = await ok<{ tokens: { accessToken: string } }>(
    anon.post('/api/auth/register', {
      email: 'root@qiraa.test',
      password: PASSWORD,
      fullNameAr: 'المشرف العام',
      primaryPersona: 'ADMIN',
    }),
  );
  const superToken = registered.tokens.accessToken;
  const root = client(t.app, superToken);
  const login = async (email: string) =>
    (await ok<{ accessToken: string }>(anon.post('/api/auth/login', { email, password: PASSWORD }), 200)).accessToken;

  const org = async (slug: string, country: string): Promise<Org> => {
    const { id } = await ok<{ id: string }>(
      root.post('/api/organizations', { name: `منظمة ${slug}`, slug, country, defaultLocale: 'ar-JO' }),
    );
    const school = async (name: string) =>
      (await ok<{ id: string }>(root.post('/api/schools', { organizationId: id, name, country }))).id;
    const schoolId = await school('مدرسة الأمل');
    const otherSchoolId = await school('مدرسة النور');
    const cls = async (s: string, name: string) =>
      ok<{ id: string; loginCode: string }>(
        root.post('/api/classes', { schoolId: s, name, grade: 2, academicYear: '2026-2027' }),
      );
    const main = await cls(schoolId, 'الصف الثاني أ');
    const other = await cls(otherSchoolId, 'الصف الثاني ب');
    const user = async (persona: string, email: string, extra: Record<string, unknown> = {}) =>
      (
        await ok<{ id: number }>(
          root.post('/api/users', {
            primaryPersona: persona,
            email,
            password: PASSWORD,
            fullNameAr: 'مستخدم تجريبي',
            organizationId: id,
            ...extra,
          }),
        )
      ).id;
    await user('ADMIN', `admin@${slug}.test`);
    const teacherId = await user('TEACHER', `teacher@${slug}.test`);
    const otherTeacherId = await user('TEACHER', `teacher2@${slug}.test`);
    await user('PRINCIPAL', `principal@${slug}.test`, { schoolId });
    await user('MANAGER', `manager@${slug}.test`);
    const parentId = await user('PARENT', `parent@${slug}.test`);
    await ok(root.post(`/api/classes/${main.id}/teachers`, { teacherUserId: teacherId }));
    await ok(root.post(`/api/classes/${other.id}/teachers`, { teacherUserId: otherTeacherId }));
    const student = await ok<{ id: number }>(
      root.post('/api/users', { primaryPersona: 'STUDENT', fullNameAr: 'سارة', classId: main.id, quickCode: '07' }),
    );
    await ok(root.post(`/api/students/${student.id}/parents`, { parentUserId: parentId }));
    const studentLogin = await ok<{ accessToken: string }>(
      anon.post('/api/auth/student/quickcode', { classCode: main.loginCode, quickCode: '07' }),
      200,
    );
    return {
      id,
      schoolId,
      otherSchoolId,
      classId: main.id,
      otherClassId: other.id,
      classCode: main.loginCode,
      adminToken: await login(`admin@${slug}.test`),
      teacherId,
      teacherToken: await login(`teacher@${slug}.test`),
      otherTeacherToken: await login(`teacher2@${slug}.test`),
      principalToken: await login(`principal@${slug}.test`),
      managerToken: await login(`manager@${slug}.test`),
      parentId,
      parentToken: await login(`parent@${slug}.test`),
      studentId: student.id,
      studentQuickCode: '07',
      studentToken: studentLogin.accessToken,
    };
  };
  return { superToken, a: await org('amal-jo', 'JO'), b: await org('noor-ps', 'PS') };
}
