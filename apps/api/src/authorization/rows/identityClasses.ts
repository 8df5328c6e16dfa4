import { PASSWORD } from '@qiraa/app/testing';
import {
  authenticated,
  everyone,
  type MatrixContext,
  type MatrixRow,
  MISSING,
  REFUSED,
  type Target,
} from '../matrixTypes';
import { classFor } from './identityCore';

/** Super-admin calls that make fresh resources for destructive rows. */
async function asSuper(ctx: MatrixContext, method: 'POST', url: string, payload: object) {
  const res = await ctx.t.app.inject({
    method,
    url,
    payload,
    headers: { authorization: `Bearer ${ctx.world.superToken}` },
  });
  if (res.statusCode >= 300) throw new Error(`fixture ${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

const orgOf = (ctx: MatrixContext, target: Target) => (target === 'otherOrg' ? ctx.world.b : ctx.world.a);
const schoolOf = (ctx: MatrixContext, target: Target) =>
  target === 'sameOrg' ? ctx.world.a.otherSchoolId : orgOf(ctx, target).schoolId;

/** A fresh empty class in the target's school (own: the teacher's school; sameOrg: the other school). */
async function freshClass(ctx: MatrixContext, target: Target): Promise<string> {
  if (target === 'missing') return MISSING.class;
  const body = { schoolId: schoolOf(ctx, target), name: 'صف مؤقت', grade: 3, academicYear: '2026-2027' };
  return (await asSuper(ctx, 'POST', '/api/classes', body)).id;
}

async function freshUser(ctx: MatrixContext, target: Target, persona: 'TEACHER' | 'PARENT'): Promise<number> {
  const body = {
    primaryPersona: persona,
    email: `m${ctx.unique()}@x.test`,
    password: PASSWORD,
    fullNameAr: 'مستخدم',
    organizationId: orgOf(ctx, target).id,
  };
  return (await asSuper(ctx, 'POST', '/api/users', body)).id;
}

/** A fresh student of the target class (own: the teacher's class). */
async function freshStudent(ctx: MatrixContext, target: Target): Promise<number> {
  if (target === 'missing') return MISSING.user;
  return (
    await asSuper(ctx, 'POST', '/api/users', {
      primaryPersona: 'STUDENT',
      fullNameAr: 'طالب',
      classId: classFor(ctx, target),
    })
  ).id;
}

/** Reading a class: its teachers, its school's principal, organization staff. */
const readClass = authenticated(
  { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
  {
    super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
    admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
    manager: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
    parent: { own: 403, sameOrg: 403, otherOrg: 404, missing: 404 },
    student: { own: 403, sameOrg: 403, otherOrg: 404, missing: 404 },
  },
);

/** Managing a class's students: its teachers and organization admins; others lack the permission. */
const manageStudents = (ok: number) =>
  authenticated(REFUSED, {
    super: { own: ok, sameOrg: ok, otherOrg: ok, missing: 404 },
    admin: { own: ok, sameOrg: ok, otherOrg: 404, missing: 404 },
    teacher: { own: ok, sameOrg: 403, otherOrg: 404, missing: 404 },
  });

/** Organization administration (MANAGE_ORG). */
const manageOrg = (ok: number) =>
  authenticated(REFUSED, {
    super: { own: ok, sameOrg: ok, otherOrg: ok, missing: 404 },
    admin: { own: ok, sameOrg: ok, otherOrg: 404, missing: 404 },
  });

const all: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];

/** Student login, class codes, teachers, roster and parent links. */
export const identityClassRows: MatrixRow[] = [
  {
    route: 'POST /api/auth/student/quickcode',
    targets: ['none'],
    request: (ctx) => ({
      url: '/api/auth/student/quickcode',
      body: { classCode: ctx.world.a.classCode, quickCode: '07' },
    }),
    expect: everyone(200),
  },
  {
    // Public: the home login of the world's student (its loginName read from the database).
    route: 'POST /api/auth/student/home',
    targets: ['none'],
    request: async (ctx) => {
      const [row] = await ctx.t.db.sql<{ login_name: string }[]>`
        select login_name from users where id = ${ctx.world.a.studentId}`;
      return {
        url: '/api/auth/student/home',
        body: { loginName: row!.login_name, quickCode: ctx.world.a.studentQuickCode },
      };
    },
    expect: everyone(200),
  },
  {
    route: 'GET /api/auth/student/class-preview',
    targets: ['none'],
    request: (ctx) => ({ url: `/api/auth/student/class-preview?classCode=${ctx.world.a.classCode}` }),
    expect: everyone(200),
  },
  {
    route: 'GET /api/classes/{classId}/login-cards',
    targets: all,
    request: (ctx, target) => ({ url: `/api/classes/${classFor(ctx, target)}/login-cards` }),
    expect: readClass,
  },
  {
    // onlyIfExpired on a live code changes nothing, so the world's class codes stay valid for other rows.
    route: 'POST /api/classes/{classId}/login-code/rotate',
    targets: all,
    request: (ctx, target) => ({
      url: `/api/classes/${classFor(ctx, target)}/login-code/rotate`,
      body: { onlyIfExpired: true },
    }),
    expect: manageStudents(200),
  },
  {
    route: 'GET /api/classes/{classId}/teachers',
    targets: all,
    request: (ctx, target) => ({ url: `/api/classes/${classFor(ctx, target)}/teachers` }),
    expect: readClass,
  },
  {
    route: 'POST /api/classes/{classId}/teachers',
    targets: all,
    request: async (ctx, target) => ({
      url: `/api/classes/${await freshClass(ctx, target)}/teachers`,
      body: { teacherUserId: target === 'missing' ? MISSING.user : await freshUser(ctx, target, 'TEACHER') },
    }),
    expect: manageOrg(201),
  },
  {
    route: 'DELETE /api/classes/{classId}/teachers/{teacherUserId}',
    targets: all,
    request: async (ctx, target) => {
      const classId = await freshClass(ctx, target);
      if (target === 'missing') return { url: `/api/classes/${classId}/teachers/${MISSING.user}` };
      const teacherUserId = await freshUser(ctx, target, 'TEACHER');
      await asSuper(ctx, 'POST', `/api/classes/${classId}/teachers`, { teacherUserId });
      return { url: `/api/classes/${classId}/teachers/${teacherUserId}` };
    },
    expect: manageOrg(204),
  },
  {
    route: 'DELETE /api/classes/{classId}',
    targets: all,
    request: async (ctx, target) => ({ url: `/api/classes/${await freshClass(ctx, target)}` }),
    expect: manageOrg(204),
  },
  {
    route: 'POST /api/classes/{classId}/students',
    targets: all,
    request: (ctx, target) => ({
      url: `/api/classes/${classFor(ctx, target)}/students`,
      body: { fullNameAr: 'طالب جديد' },
    }),
    expect: manageStudents(201),
  },
  {
    route: 'GET /api/classes/{classId}/students',
    targets: all,
    request: (ctx, target) => ({ url: `/api/classes/${classFor(ctx, target)}/students` }),
    expect: readClass,
  },
  {
    route: 'POST /api/classes/{classId}/students/{studentId}/deactivate',
    targets: all,
    request: async (ctx, target) => ({
      url: `/api/classes/${classFor(ctx, target)}/students/${await freshStudent(ctx, target)}/deactivate`,
    }),
    expect: manageStudents(200),
  },
  {
    route: 'POST /api/students/{studentId}/parents',
    targets: all,
    request: async (ctx, target) => ({
      url: `/api/students/${await freshStudent(ctx, target)}/parents`,
      body: { parentUserId: target === 'missing' ? MISSING.user : await freshUser(ctx, target, 'PARENT') },
    }),
    expect: manageOrg(201),
  },
  {
    route: 'GET /api/students/{studentId}/parents',
    targets: all,
    request: async (ctx, target) => ({ url: `/api/students/${await freshStudent(ctx, target)}/parents` }),
    expect: authenticated(REFUSED, {
      super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
      admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
      teacher: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
    }),
  },
  {
    route: 'DELETE /api/students/{studentId}/parents/{parentUserId}',
    targets: all,
    request: async (ctx, target) => {
      const studentId = await freshStudent(ctx, target);
      if (target === 'missing') return { url: `/api/students/${studentId}/parents/${MISSING.user}` };
      const parentUserId = await freshUser(ctx, target, 'PARENT');
      await asSuper(ctx, 'POST', `/api/students/${studentId}/parents`, { parentUserId });
      return { url: `/api/students/${studentId}/parents/${parentUserId}` };
    },
    expect: manageOrg(204),
  },
];
