import { useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import { testKit } from '../testing/testKit';

const { t, w } = useTestWorld();
const kit = testKit(t);

const MISSING_CLASS = 'cls_000000000000';
const list = (token: string, classId: string) => kit.as(token).get(`/api/classes/${classId}/teachers`);
const assign = (token: string, classId: string, teacherUserId: number) =>
  kit.as(token).post(`/api/classes/${classId}/teachers`, { teacherUserId });
const remove = (token: string, classId: string, teacherUserId: number) =>
  kit.as(token).delete(`/api/classes/${classId}/teachers/${teacherUserId}`);

describe('GET /api/classes/{classId}/teachers', () => {
  it('lists the teachers of the class with id, Arabic name and email', async () => {
    const res = await list(w.a.adminToken, w.a.classId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([
      { teacherUserId: w.a.teacherId, fullNameAr: expect.any(String), email: 'teacher@amal-jo.test' },
    ]);
  });

  it('is readable by a teacher of the class and by the principal of its school', async () => {
    for (const token of [w.a.teacherToken, w.a.principalToken]) {
      const res = await list(token, w.a.classId);
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('is 403 PERMISSION_DENIED for a parent and for a teacher of another class', async () => {
    for (const token of [w.a.parentToken, w.a.otherTeacherToken]) {
      const res = await list(token, w.a.classId);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('PERMISSION_DENIED');
    }
  });

  it("answers another organization's class exactly like a missing one (404)", async () => {
    const other = await list(w.b.adminToken, w.a.classId);
    const missing = await list(w.b.adminToken, MISSING_CLASS);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
  });
});

describe('POST /api/classes/{classId}/teachers', () => {
  it('assigns a teacher of the organization (201); several teachers per class', async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    const first = await kit.newAdult(w.a.adminToken, w.a.id, 'TEACHER');
    const second = await kit.newAdult(w.a.adminToken, w.a.id, 'TEACHER');
    const res = await assign(w.a.adminToken, cls.id, first.id);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ classId: cls.id, teacherUserId: first.id });
    await kit.ok(assign(w.a.adminToken, cls.id, second.id));
    const ids = (await list(w.a.adminToken, cls.id)).json().map((r: { teacherUserId: number }) => r.teacherUserId);
    expect(ids).toEqual([first.id, second.id]);
  });

  it('gives the assigned teacher the class (it reads the roster and sees it in /auth/me)', async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    const teacher = await kit.newAdult(w.a.adminToken, w.a.id, 'TEACHER');
    expect((await kit.as(teacher.token).get(`/api/classes/${cls.id}/students`)).statusCode).toBe(403);
    await kit.ok(assign(w.a.adminToken, cls.id, teacher.id));
    expect((await kit.as(teacher.token).get(`/api/classes/${cls.id}/students`)).statusCode).toBe(200);
    expect((await kit.as(teacher.token).get('/api/auth/me')).json().classIds).toContain(cls.id);
  });

  it('answers an existing assignment with 409 CONFLICT reason already_assigned', async () => {
    const res = await assign(w.a.adminToken, w.a.classId, w.a.teacherId);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', reason: 'already_assigned' });
  });

  it('refuses a user who is not a TEACHER with 422 reason not_a_teacher', async () => {
    const res = await assign(w.a.adminToken, w.a.classId, w.a.parentId);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'not_a_teacher' });
  });

  it("answers another organization's teacher exactly like a missing user (404)", async () => {
    const other = await assign(w.a.adminToken, w.a.classId, w.b.teacherId);
    const missing = await assign(w.a.adminToken, w.a.classId, 987_654_321);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
  });

  it("answers another organization's class with 404", async () => {
    const res = await assign(w.b.adminToken, w.a.classId, w.b.teacherId);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });

  it('is 403 PERMISSION_DENIED without MANAGE_ORG, even for a teacher of the class', async () => {
    const teacher = await kit.newAdult(w.a.adminToken, w.a.id, 'TEACHER');
    for (const token of [w.a.teacherToken, w.a.principalToken, w.a.managerToken]) {
      const res = await assign(token, w.a.classId, teacher.id);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('PERMISSION_DENIED');
    }
  });

  it('refuses a teacherUserId that is not a positive integer with 422', async () => {
    for (const teacherUserId of [0, -1, '5', 1.5]) {
      const res = await kit.as(w.a.adminToken).post(`/api/classes/${w.a.classId}/teachers`, { teacherUserId });
      expect(res.statusCode, String(teacherUserId)).toBe(422);
    }
  });
});

describe('DELETE /api/classes/{classId}/teachers/{teacherUserId}', () => {
  it('removes the assignment (204): the teacher no longer reaches the class', async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    const teacher = await kit.newAdult(w.a.adminToken, w.a.id, 'TEACHER');
    await kit.ok(assign(w.a.adminToken, cls.id, teacher.id));
    const res = await remove(w.a.adminToken, cls.id, teacher.id);
    expect(res.statusCode, res.body).toBe(204);
    expect((await list(w.a.adminToken, cls.id)).json()).toEqual([]);
    expect((await kit.as(teacher.token).get(`/api/classes/${cls.id}/students`)).statusCode).toBe(403);
  });

  it('is 404 when the teacher is not assigned to the class', async () => {
    const res = await remove(w.a.adminToken, w.a.otherClassId, w.a.teacherId);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });

  it('is 403 for a teacher (no MANAGE_ORG) and 404 for another organization', async () => {
    const forbidden = await remove(w.a.teacherToken, w.a.classId, w.a.teacherId);
    expect(forbidden.statusCode).toBe(403);
    const foreign = await remove(w.b.adminToken, w.a.classId, w.a.teacherId);
    expect(foreign.statusCode).toBe(404);
    expect((await list(w.a.adminToken, w.a.classId)).json()).toHaveLength(1);
  });
});
