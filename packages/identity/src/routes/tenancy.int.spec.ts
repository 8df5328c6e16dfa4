import { client, useTestApp } from '@qiraa/app/testing';
import { beforeAll, describe, expect, it } from 'vitest';

const PASSWORD = 'correct horse battery';
const t = useTestApp();
let root: ReturnType<typeof client>;
let orgId: string;
let schoolId: string;

beforeAll(async () => {
  const reg = await client(t.app).post('/api/auth/register', {
    email: 'root@tenancy.test',
    password: PASSWORD,
    fullNameAr: 'المشرف',
    primaryPersona: 'ADMIN',
  });
  root = client(t.app, reg.json().tokens.accessToken);
  orgId = (
    await root.post('/api/organizations', { name: 'م', slug: 'tenancy-jo', country: 'JO', defaultLocale: 'ar-JO' })
  ).json().id;
  schoolId = (await root.post('/api/schools', { organizationId: orgId, name: 'مدرسة', country: 'JO' })).json().id;
});

const fieldsOf = (res: { json(): { details?: { field: string }[] } }) => (res.json().details ?? []).map((d) => d.field);

describe('organizations', () => {
  it('creates one with the OrgResponse shape', async () => {
    const res = await root.post('/api/organizations', {
      name: 'منظمة',
      slug: 'noor-ps',
      country: 'PS',
      defaultLocale: 'ar-PS',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.stringMatching(/^org_/),
      name: 'منظمة',
      slug: 'noor-ps',
      country: 'PS',
      defaultLocale: 'ar-PS',
    });
  });

  it('refuses a slug that is not a lowercase slug (422) and a taken one (409)', async () => {
    for (const slug of ['Noor', 'noor ps', '-noor', 'noor_ps']) {
      const res = await root.post('/api/organizations', { name: 'م', slug, country: 'PS', defaultLocale: 'ar-PS' });
      expect(res.statusCode, slug).toBe(422);
      expect(fieldsOf(res)).toEqual(['slug']);
    }
    const taken = await root.post('/api/organizations', {
      name: 'م',
      slug: 'tenancy-jo',
      country: 'JO',
      defaultLocale: 'ar',
    });
    expect(taken.statusCode).toBe(409);
  });
});

describe('schools', () => {
  it("refuses a country that differs from the organization's with 422", async () => {
    const res = await root.post('/api/schools', { organizationId: orgId, name: 'مدرسة', country: 'PS' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'country_mismatch' });
    expect(fieldsOf(res)).toEqual(['country']);
  });

  it('answers 404 for an organization that does not exist', async () => {
    const res = await root.post('/api/schools', { organizationId: 'org_AAAAAAAAAAAA', name: 'مدرسة', country: 'JO' });
    expect(res.statusCode).toBe(404);
  });
});

describe('classes', () => {
  it('mints a login code valid for 365 days', async () => {
    const res = await root.post('/api/classes', { schoolId, name: 'الأول أ', grade: 1, academicYear: '2026-2027' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ schoolId, name: 'الأول أ', grade: 1, academicYear: '2026-2027' });
    expect(body.loginCode).toMatch(/^[A-Z2-9]{8}$/);
    const days = (Date.parse(body.loginCodeExpiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364.9);
    expect(days).toBeLessThan(365.1);
  });

  it('refuses a grade outside 1 to 4 and a non-consecutive academic year with 422', async () => {
    for (const grade of [0, 5]) {
      const res = await root.post('/api/classes', { schoolId, name: 'ص', grade, academicYear: '2026-2027' });
      expect(res.statusCode).toBe(422);
      expect(fieldsOf(res)).toEqual(['grade']);
    }
    for (const academicYear of ['2026-2028', '2026/2027', '26-27']) {
      const res = await root.post('/api/classes', { schoolId, name: 'ص', grade: 2, academicYear });
      expect(res.statusCode, academicYear).toBe(422);
      expect(fieldsOf(res)).toEqual(['academicYear']);
    }
  });

  it('lists the classes the caller reaches', async () => {
    const res = await root.get(`/api/classes?schoolId=${schoolId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().length).toBeGreaterThan(0);
    expect(res.json().every((c: { schoolId: string }) => c.schoolId === schoolId)).toBe(true);
  });
});

describe('users', () => {
  it('creates each adult persona and refuses an existing email with 409 EMAIL_EXISTS', async () => {
    for (const [persona, extra] of [
      ['ADMIN', {}],
      ['TEACHER', {}],
      ['PARENT', {}],
      ['MANAGER', {}],
      ['PRINCIPAL', { schoolId }],
    ] as const) {
      const res = await root.post('/api/users', {
        primaryPersona: persona,
        email: `${persona.toLowerCase()}@tenancy.test`,
        password: PASSWORD,
        fullNameAr: 'مستخدم',
        organizationId: orgId,
        ...extra,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().id).toBeGreaterThan(0);
    }
    const again = await root.post('/api/users', {
      primaryPersona: 'PARENT',
      email: 'TEACHER@tenancy.test',
      password: PASSWORD,
      fullNameAr: 'مستخدم',
      organizationId: orgId,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('EMAIL_EXISTS');
  });

  it('validates against the branch of the persona given, naming its fields', async () => {
    const teacher = await root.post('/api/users', {
      primaryPersona: 'TEACHER',
      email: 'x@tenancy.test',
      password: PASSWORD,
    });
    expect(teacher.statusCode).toBe(422);
    expect(fieldsOf(teacher).sort()).toEqual(['fullNameAr', 'organizationId']);
    const principal = await root.post('/api/users', {
      primaryPersona: 'PRINCIPAL',
      email: 'y@tenancy.test',
      password: PASSWORD,
      fullNameAr: 'م',
      organizationId: orgId,
    });
    expect(fieldsOf(principal)).toEqual(['schoolId']);
    const unknown = await root.post('/api/users', { primaryPersona: 'JANITOR', email: 'z@tenancy.test' });
    expect(unknown.statusCode).toBe(422);
    expect(fieldsOf(unknown)).toEqual(['primaryPersona']);
  });

  it('enrolls a STUDENT into a class with the lowest free quickCode', async () => {
    const cls = (await root.post('/api/classes', { schoolId, name: 'ب', grade: 3, academicYear: '2026-2027' })).json();
    const first = await root.post('/api/users', { primaryPersona: 'STUDENT', fullNameAr: 'ليلى', classId: cls.id });
    const second = await root.post('/api/users', { primaryPersona: 'STUDENT', fullNameAr: 'عمر', classId: cls.id });
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    const codes = await t.db.sql`select quick_code from class_students where class_id = ${cls.id} order by quick_code`;
    expect(codes.map((r) => r.quick_code)).toEqual(['01', '02']);
    const taken = await root.post('/api/users', {
      primaryPersona: 'STUDENT',
      fullNameAr: 'سامي',
      classId: cls.id,
      quickCode: '02',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().reason).toBe('quick_code_taken');
  });

  it('lets only an organization admin create adults: a teacher gets 403', async () => {
    const login = await client(t.app).post('/api/auth/login', { email: 'teacher@tenancy.test', password: PASSWORD });
    const teacher = client(t.app, login.json().accessToken);
    const res = await teacher.post('/api/users', {
      primaryPersona: 'PARENT',
      email: 'p2@tenancy.test',
      password: PASSWORD,
      fullNameAr: 'م',
      organizationId: orgId,
    });
    expect(res.statusCode).toBe(403);
    expect(
      (await teacher.post('/api/organizations', { name: 'م', slug: 'nope', country: 'JO', defaultLocale: 'ar' }))
        .statusCode,
    ).toBe(403);
  });
});
