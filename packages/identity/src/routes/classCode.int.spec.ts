import { useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import { CODE_ROTATION_WINDOW_SECONDS, CODE_ROTATIONS_PER_WINDOW } from '../commands/rotateClassCode';
import { testKit } from '../testing/testKit';

const { t, w } = useTestWorld();
const kit = testKit(t);

const MISSING_CLASS = 'cls_000000000000';
const cards = (token: string | undefined, classId: string) => kit.as(token).get(`/api/classes/${classId}/login-cards`);
const rotate = (token: string | undefined, classId: string, body: Record<string, unknown> = {}) =>
  kit.as(token).post(`/api/classes/${classId}/login-code/rotate`, body);

/** A fresh class of organization A taught by a fresh teacher. */
async function taughtClass() {
  const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
  const teacher = await kit.newAdult(w.a.adminToken, w.a.id, 'TEACHER');
  await kit.ok(kit.as(w.a.adminToken).post(`/api/classes/${cls.id}/teachers`, { teacherUserId: teacher.id }));
  return { cls, teacher };
}

/** The home-login name printed on each card (docs/identity.md, Home login). */
const LOGIN_NAME = expect.stringMatching(/^[1-9][0-9]{7}$/);

describe('GET /api/classes/{classId}/login-cards', () => {
  it('lists a card per active student, ordered by quickCode, with the current code', async () => {
    const { cls, teacher } = await taughtClass();
    const s12 = await kit.enroll(teacher.token, cls.id, '12');
    const s03 = await kit.enroll(teacher.token, cls.id, '03');
    const s07 = await kit.enroll(teacher.token, cls.id, '07');
    await kit.ok(kit.as(teacher.token).post(`/api/classes/${cls.id}/students/${s07.studentId}/deactivate`), 200);
    const res = await cards(teacher.token, cls.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      classId: cls.id,
      loginCode: cls.loginCode,
      loginCodeExpiresAt: cls.loginCodeExpiresAt,
    });
    expect(body.className).toEqual(expect.any(String));
    expect(body.cards).toEqual([
      { studentId: s03.studentId, fullNameAr: expect.any(String), quickCode: '03', loginName: LOGIN_NAME },
      { studentId: s12.studentId, fullNameAr: expect.any(String), quickCode: '12', loginName: LOGIN_NAME },
    ]);
  });

  it("is readable by the principal of the class's school", async () => {
    const res = await cards(w.a.principalToken, w.a.classId);
    expect(res.statusCode, res.body).toBe(200);
  });

  it("is 403 for the principal of another school (the class's school is not theirs)", async () => {
    const res = await cards(w.a.principalToken, w.a.otherClassId);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('PERMISSION_DENIED');
  });

  it('is 403 PERMISSION_DENIED for a teacher of another class of the organization', async () => {
    const res = await cards(w.a.otherTeacherToken, w.a.classId);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('PERMISSION_DENIED');
  });

  it('is 403 for a parent and for a student of the class', async () => {
    for (const token of [w.a.parentToken, w.a.studentToken]) {
      const res = await cards(token, w.a.classId);
      expect(res.statusCode).toBe(403);
    }
  });

  it("answers another organization's class exactly like a missing one (404)", async () => {
    const other = await cards(w.b.adminToken, w.a.classId);
    const missing = await cards(w.b.adminToken, MISSING_CLASS);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
  });

  it('needs a bearer token (401 TOKEN_MISSING)', async () => {
    const res = await cards(undefined, w.a.classId);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('TOKEN_MISSING');
  });

  it('refuses a malformed class id with 422', async () => {
    const res = await cards(w.a.adminToken, 'cls_short');
    expect(res.statusCode).toBe(422);
  });
});

describe('POST /api/classes/{classId}/login-code/rotate', () => {
  it('lets a teacher of the class mint a new code valid 365 days', async () => {
    const { cls, teacher } = await taughtClass();
    const before = Date.now();
    const res = await rotate(teacher.token, cls.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ classId: cls.id, rotated: true });
    expect(body.loginCode).not.toBe(cls.loginCode);
    const days = (Date.parse(body.loginCodeExpiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThan(364.99);
    expect(days).toBeLessThan(365.01);
    expect((await cards(teacher.token, cls.id)).json().loginCode).toBe(body.loginCode);
  });

  it('kills the old link at once: preview 410 and student login 401 with it', async () => {
    const { cls, teacher } = await taughtClass();
    await kit.enroll(teacher.token, cls.id, '04');
    await kit.ok(rotate(w.a.adminToken, cls.id), 200);
    const preview = await kit.as().get(`/api/auth/student/class-preview?classCode=${cls.loginCode}`);
    expect(preview.statusCode).toBe(410);
    const login = await kit.quickcode({ classCode: cls.loginCode, quickCode: '04' }, '10.2.0.1');
    expect(login.statusCode).toBe(401);
    expect(login.json().code).toBe('QUICKCODE_INVALID_OR_EXPIRED');
  });

  it('with onlyIfExpired on a live code changes nothing (rotated: false) and writes no audit event', async () => {
    const { cls, teacher } = await taughtClass();
    const res = await rotate(teacher.token, cls.id, { onlyIfExpired: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      classId: cls.id,
      loginCode: cls.loginCode,
      loginCodeExpiresAt: cls.loginCodeExpiresAt,
      rotated: false,
    });
    const events = await kit.auditEvents(w.a.id, 'class_login_code_rotated');
    expect(events.filter((e) => e.targetClassId === cls.id)).toEqual([]);
    const preview = await kit.as().get(`/api/auth/student/class-preview?classCode=${cls.loginCode}`);
    expect(preview.statusCode).toBe(200);
  });

  it('writes an audit event class_login_code_rotated with detail manual', async () => {
    const { cls, teacher } = await taughtClass();
    await kit.ok(rotate(teacher.token, cls.id), 200);
    const events = await kit.auditEvents(w.a.id, 'class_login_code_rotated');
    expect(events.filter((e) => e.targetClassId === cls.id)).toEqual([
      expect.objectContaining({
        organizationId: w.a.id,
        actorUserId: teacher.id,
        targetClassId: cls.id,
        detail: { detail: 'manual' },
      }),
    ]);
  });

  it('renews a lapsed code with onlyIfExpired and records detail expired_on_copy', async () => {
    const { cls, teacher } = await taughtClass();
    await kit.lapseCode(cls.id);
    const res = await rotate(teacher.token, cls.id, { onlyIfExpired: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rotated).toBe(true);
    expect(res.json().loginCode).not.toBe(cls.loginCode);
    const events = await kit.auditEvents(w.a.id, 'class_login_code_rotated');
    expect(events.filter((e) => e.targetClassId === cls.id).map((e) => e.detail)).toEqual([
      { detail: 'expired_on_copy' },
    ]);
  });

  it('lets an organization admin (MANAGE_ORG) rotate any class of the organization', async () => {
    const res = await rotate(w.a.adminToken, w.a.otherClassId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rotated).toBe(true);
  });

  it('is 403 PERMISSION_DENIED for a teacher who does not teach the class', async () => {
    const res = await rotate(w.a.otherTeacherToken, w.a.classId);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('PERMISSION_DENIED');
  });

  it('is 403 for the principal, the manager, a parent and a student', async () => {
    for (const token of [w.a.principalToken, w.a.managerToken, w.a.parentToken, w.a.studentToken]) {
      const res = await rotate(token, w.a.classId);
      expect(res.statusCode).toBe(403);
    }
  });

  it("answers another organization's class exactly like a missing one (404)", async () => {
    const other = await rotate(w.b.adminToken, w.a.classId);
    const missing = await rotate(w.b.adminToken, MISSING_CLASS);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
  });

  it(`allows ${CODE_ROTATIONS_PER_WINDOW} rotations per user and window, then 429 RATE_LIMITED with Retry-After`, async () => {
    const { cls, teacher } = await taughtClass();
    for (let i = 0; i < CODE_ROTATIONS_PER_WINDOW; i += 1) {
      await kit.ok(rotate(teacher.token, cls.id), 200);
    }
    const res = await rotate(teacher.token, cls.id);
    expect(res.statusCode).toBe(429);
    const body = res.json();
    expect(body.code).toBe('RATE_LIMITED');
    expect(body.retryAfter).toBeGreaterThan(0);
    expect(body.retryAfter).toBeLessThanOrEqual(CODE_ROTATION_WINDOW_SECONDS);
    expect(res.headers['retry-after']).toBe(String(body.retryAfter));
  });

  it('counts rotations per user: another user may still rotate the same class', async () => {
    const { cls, teacher } = await taughtClass();
    for (let i = 0; i < CODE_ROTATIONS_PER_WINDOW; i += 1) {
      await kit.ok(rotate(teacher.token, cls.id), 200);
    }
    const res = await rotate(w.a.adminToken, cls.id);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('stops parallel rotations by one user at the limit, across classes', async () => {
    const admin = await kit.newAdult(w.a.adminToken, w.a.id, 'ADMIN');
    const classes = await Promise.all(Array.from({ length: 15 }, () => kit.newClass(w.a.adminToken, w.a.schoolId)));
    const all = await Promise.all(classes.map((cls) => rotate(admin.token, cls.id)));
    const statuses = all.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(CODE_ROTATIONS_PER_WINDOW);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15 - CODE_ROTATIONS_PER_WINDOW);
  });

  it('does not count onlyIfExpired no-ops against the limit', async () => {
    const { cls, teacher } = await taughtClass();
    for (let i = 0; i < CODE_ROTATIONS_PER_WINDOW + 2; i += 1) {
      await kit.ok(rotate(teacher.token, cls.id, { onlyIfExpired: true }), 200);
    }
    const res = await rotate(teacher.token, cls.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rotated).toBe(true);
  });

  it('refuses an unknown body key with 422', async () => {
    const res = await rotate(w.a.adminToken, w.a.classId, { force: true });
    expect(res.statusCode).toBe(422);
  });
});
