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

const orgFor = ({ world }: MatrixContext, target: Target) =>
  target === 'own' ? world.a.id : target === 'otherOrg' ? world.b.id : MISSING.org;
const schoolFor = ({ world }: MatrixContext, target: Target) =>
  target === 'own' ? world.a.schoolId : target === 'otherOrg' ? world.b.schoolId : MISSING.school;
const classFor = ({ world }: MatrixContext, target: Target) =>
  target === 'own'
    ? world.a.classId
    : target === 'sameOrg'
      ? world.a.otherClassId
      : target === 'otherOrg'
        ? world.b.classId
        : MISSING.class;

async function freshRefreshToken({ t }: MatrixContext): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'teacher@amal-jo.test', password: PASSWORD },
  });
  return res.json().refreshToken;
}

const createOnly = { super: 201, admin: { own: 201, otherOrg: 404, missing: 404 } };

/** Authentication, provisioning and tenancy routes of the identity context. */
export const identityCoreRows: MatrixRow[] = [
  {
    route: 'POST /api/auth/register',
    targets: ['none'],
    request: (ctx) => ({
      url: '/api/auth/register',
      body: { email: `r${ctx.unique()}@x.test`, password: PASSWORD, fullNameAr: 'م', primaryPersona: 'ADMIN' },
    }),
    expect: everyone(403),
  },
  {
    route: 'POST /api/auth/login',
    targets: ['none'],
    request: () => ({ url: '/api/auth/login', body: { email: 'manager@amal-jo.test', password: PASSWORD } }),
    expect: everyone(200),
  },
  {
    route: 'POST /api/auth/refresh',
    targets: ['none'],
    request: async (ctx) => ({ url: '/api/auth/refresh', body: { refreshToken: await freshRefreshToken(ctx) } }),
    expect: everyone(200),
  },
  {
    route: 'POST /api/auth/logout',
    targets: ['none'],
    request: async (ctx) => ({ url: '/api/auth/logout', body: { refreshToken: await freshRefreshToken(ctx) } }),
    expect: everyone(204),
  },
  {
    route: 'GET /api/auth/me',
    targets: ['none'],
    request: () => ({ url: '/api/auth/me' }),
    expect: authenticated(200),
  },
  {
    route: 'POST /api/organizations',
    targets: ['none'],
    request: (ctx) => ({
      url: '/api/organizations',
      body: { name: 'م', slug: `org-${ctx.unique()}`, country: 'JO', defaultLocale: 'ar-JO' },
    }),
    expect: authenticated(403, { super: 201 }),
  },
  {
    route: 'POST /api/schools',
    targets: ['own', 'otherOrg', 'missing'],
    request: (ctx, target) => ({
      url: '/api/schools',
      body: { organizationId: orgFor(ctx, target), name: 'مدرسة', country: target === 'otherOrg' ? 'PS' : 'JO' },
    }),
    expect: authenticated(REFUSED, {
      super: { own: 201, otherOrg: 201, missing: 404 },
      admin: createOnly.admin,
    }),
  },
  {
    route: 'POST /api/classes',
    targets: ['own', 'otherOrg', 'missing'],
    request: (ctx, target) => ({
      url: '/api/classes',
      body: { schoolId: schoolFor(ctx, target), name: 'صف', grade: 1, academicYear: '2026-2027' },
    }),
    expect: authenticated(REFUSED, { super: { own: 201, otherOrg: 201, missing: 404 }, admin: createOnly.admin }),
  },
  {
    route: 'GET /api/classes',
    targets: ['none'],
    filters: ['schoolId'],
    request: () => ({ url: '/api/classes' }),
    expect: authenticated(200),
  },
  {
    route: 'POST /api/users',
    variant: 'adult',
    targets: ['own', 'otherOrg', 'missing'],
    request: (ctx, target) => ({
      url: '/api/users',
      body: {
        primaryPersona: 'TEACHER',
        email: `u${ctx.unique()}@x.test`,
        password: PASSWORD,
        fullNameAr: 'م',
        organizationId: orgFor(ctx, target),
      },
    }),
    expect: authenticated(REFUSED, { super: { own: 201, otherOrg: 201, missing: 404 }, admin: createOnly.admin }),
  },
  {
    route: 'POST /api/users',
    variant: 'student',
    targets: ['own', 'sameOrg', 'otherOrg', 'missing'],
    request: (ctx, target) => ({
      url: '/api/users',
      body: { primaryPersona: 'STUDENT', fullNameAr: 'طالب', classId: classFor(ctx, target) },
    }),
    expect: authenticated(REFUSED, {
      super: { own: 201, sameOrg: 201, otherOrg: 201, missing: 404 },
      admin: { own: 201, sameOrg: 201, otherOrg: 404, missing: 404 },
      teacher: { own: 201, sameOrg: 403, otherOrg: 404, missing: 404 },
    }),
  },
];

export { classFor, orgFor, schoolFor };
