import { useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import { MAX_ACTIVE_STUDENTS } from '../commands/enrollStudent';
import { testKit } from '../testing/testKit';

const { t, w } = useTestWorld();
const kit = testKit(t);

const MISSING_CLASS = 'cls_000000000000';
const add = (token: string, classId: string, body: Record<string, unknown>) =>
  kit.as(token).post(`/api/classes/${classId}/students`, body);
const roster = (token: string, classId: string) => kit.as(token).get(`/api/classes/${classId}/students`);
const deactivate = (token: string, classId: string, studentId: number) =>
  kit.as(token).post(`/api/classes/${classId}/students/${studentId}/deactivate`);

describe('POST /api/classes/{classId}/students', () => {
  it('enrolls a student with the given quickCode (201 { studentId, quickCode })', async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    const res = await add(w.a.adminToken, cls.id, { fullNameAr: 'ليلى', quickCode: '42' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ studentId: expect.any(Number), quickCode: '42' });
    expect((await roster(w.a.adminToken, cls.id)).json()).toEqual([
      { studentId: res.json().studentId, fullNameAr: 'ليلى', quickCode: '42', active: true },
    ]);
  });

  it('picks the lowest free quickCode when none is given', async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    await kit.enroll(w.a.adminToken, cls.id, '01');
    await kit.enroll(w.a.adminToken, cls.id, '03');
    const res = await add(w.a.adminToken, cls.id, { fullNameAr: 'عمر' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().quickCode).toBe('02');
  });

  it('lets a teacher of the class enroll (MANAGE_CLASS_STUDENTS)', async () => {
    const res = await add(w.a.teacherToken, w.a.classId, { fullNameAr: 'يوسف' });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('answers a quickCode held by an active student with 409 CONFLICT reason quick_code_taken', async () => {
    const res = await add(w.a.adminToken, w.a.classId, { fullNameAr: 'مكرر', quickCode: w.a.studentQuickCode });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', reason: 'quick_code_taken' });
  });

  it(`answers a class holding ${MAX_ACTIVE_STUDENTS} active students with 409 reason class_full`, async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    for (let i = 0; i < MAX_ACTIVE_STUDENTS; i += 1) await kit.enroll(w.a.adminToken, cls.id);
    const res = await add(w.a.adminToken, cls.id, { fullNameAr: 'المئة' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', reason: 'class_full' });
  });

  it('refuses a quickCode outside 01-99 or not two digits with 422 naming the field', async () => {
    for (const quickCode of ['00', '100', '7', 'ab', 7]) {
      const res = await add(w.a.adminToken, w.a.classId, { fullNameAr: 'خطأ', quickCode });
      expect(res.statusCode, String(quickCode)).toBe(422);
      expect(res.json().details).toContainEqual(expect.objectContaining({ field: 'quickCode' }));
    }
  });

  it('is 403 PERMISSION_DENIED for a teacher of another class, the principal and a parent', async () => {
    for (const token of [w.a.otherTeacherToken, w.a.principalToken, w.a.parentToken]) {
      const res = await add(token, w.a.classId, { fullNameAr: 'ممنوع' });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('PERMISSION_DENIED');
    }
  });

  it("answers another organization's class exactly like a missing one (404)", async () => {
    const other = await add(w.b.adminToken, w.a.classId, { fullNameAr: 'غريب' });
    const missing = await add(w.b.adminToken, MISSING_CLASS, { fullNameAr: 'غريب' });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
  });
});

describe('GET /api/classes/{classId}/students', () => {
  it('lists active students by quickCode, then deactivated ones, with the active flag', async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    const s09 = await kit.enroll(w.a.adminToken, cls.id, '09');
    const s02 = await kit.enroll(w.a.adminToken, cls.id, '02');
    const s05 = await kit.enroll(w.a.adminToken, cls.id, '05');
    await kit.ok(deactivate(w.a.adminToken, cls.id, s02.studentId), 200);
    const res = await roster(w.a.adminToken, cls.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().map((r: { studentId: number; active: boolean }) => [r.studentId, r.active])).toEqual([
      [s05.studentId, true],
      [s09.studentId, true],
      [s02.studentId, false],
    ]);
  });

  it('is readable by a teacher of the class, the principal of its school and the manager', async () => {
    for (const token of [w.a.teacherToken, w.a.principalToken, w.a.managerToken]) {
      const res = await roster(token, w.a.classId);
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('is 403 for a teacher of another class and for a parent', async () => {
    for (const token of [w.a.otherTeacherToken, w.a.parentToken]) {
      const res = await roster(token, w.a.classId);
      expect(res.statusCode).toBe(403);
    }
  });

  it("answers another organization's class exactly like a missing one (404)", async () => {
    const other = await roster(w.b.teacherToken, w.a.classId);
    const missing = await roster(w.b.teacherToken, MISSING_CLASS);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
  });
});

describe('POST /api/classes/{classId}/students/{studentId}/deactivate', () => {
  it('deactivates the student (200 { studentId, active: false }) and frees the quickCode', async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    const student = await kit.enroll(w.a.adminToken, cls.id, '11');
    const res = await deactivate(w.a.adminToken, cls.id, student.studentId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ studentId: student.studentId, active: false });
    const again = await add(w.a.adminToken, cls.id, { fullNameAr: 'بديل', quickCode: '11' });
    expect(again.statusCode, again.body).toBe(201);
  });

  it("ends the student's session at once: a still-valid access token answers 401 SESSION_REVOKED", async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    await kit.enroll(w.a.adminToken, cls.id, '12');
    const login = await kit.quickcode({ classCode: cls.loginCode, quickCode: '12' }, '10.9.8.7');
    expect(login.statusCode, login.body).toBe(200);
    const me = () => kit.as(login.json().accessToken).get('/api/auth/me');
    expect((await me()).statusCode).toBe(200);
    await kit.ok(deactivate(w.a.adminToken, cls.id, (await me()).json().id), 200);
    const after = await me();
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('SESSION_REVOKED');
  });

  it('lets a teacher of the class deactivate', async () => {
    const { studentId } = await kit.enroll(w.a.adminToken, w.a.classId);
    const res = await deactivate(w.a.teacherToken, w.a.classId, studentId);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('is 404 for a student not enrolled in the class, or already deactivated', async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    const elsewhere = await deactivate(w.a.adminToken, cls.id, w.a.studentId);
    expect(elsewhere.statusCode).toBe(404);
    const { studentId } = await kit.enroll(w.a.adminToken, cls.id);
    await kit.ok(deactivate(w.a.adminToken, cls.id, studentId), 200);
    const twice = await deactivate(w.a.adminToken, cls.id, studentId);
    expect(twice.statusCode).toBe(404);
    expect(twice.json().code).toBe('NOT_FOUND');
  });

  it('is 403 for a teacher of another class, 404 for another organization', async () => {
    const { studentId } = await kit.enroll(w.a.adminToken, w.a.classId);
    expect((await deactivate(w.a.otherTeacherToken, w.a.classId, studentId)).statusCode).toBe(403);
    expect((await deactivate(w.b.adminToken, w.a.classId, studentId)).statusCode).toBe(404);
    const active = (await roster(w.a.adminToken, w.a.classId))
      .json()
      .find((r: { studentId: number }) => r.studentId === studentId);
    expect(active.active).toBe(true);
  });

  it('refuses a student id that is not a positive integer with 422', async () => {
    for (const id of ['0', 'abc', '-3', '99999999999999999999']) {
      const res = await kit.as(w.a.adminToken).post(`/api/classes/${w.a.classId}/students/${id}/deactivate`);
      expect(res.statusCode, id).toBe(422);
    }
  });
});
