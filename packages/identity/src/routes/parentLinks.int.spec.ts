import { useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import { testKit } from '../testing/testKit';

const { t, w } = useTestWorld();
const kit = testKit(t);

const MISSING_USER = 987_654_321;
const link = (token: string, studentId: number, parentUserId: number) =>
  kit.as(token).post(`/api/students/${studentId}/parents`, { parentUserId });
const parents = (token: string, studentId: number) => kit.as(token).get(`/api/students/${studentId}/parents`);
const unlink = (token: string, studentId: number, parentUserId: number) =>
  kit.as(token).delete(`/api/students/${studentId}/parents/${parentUserId}`);

/** A fresh student of the world's class A. */
const newStudent = async () => (await kit.enroll(w.a.adminToken, w.a.classId)).studentId;

describe('POST /api/students/{studentId}/parents', () => {
  it('links a parent of the organization to a child (201); several parents per child', async () => {
    const studentId = await newStudent();
    const mother = await kit.newAdult(w.a.adminToken, w.a.id, 'PARENT');
    const res = await link(w.a.adminToken, studentId, mother.id);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ studentId, parentUserId: mother.id });
    await kit.ok(link(w.a.adminToken, studentId, w.a.parentId));
    const ids = (await parents(w.a.adminToken, studentId)).json().map((p: { parentUserId: number }) => p.parentUserId);
    expect(ids.sort()).toEqual([mother.id, w.a.parentId].sort());
  });

  it('answers an existing link with 409 CONFLICT reason already_linked', async () => {
    const res = await link(w.a.adminToken, w.a.studentId, w.a.parentId);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', reason: 'already_linked' });
  });

  it('refuses a user who is not a PARENT with 422 reason not_a_parent', async () => {
    const res = await link(w.a.adminToken, w.a.studentId, w.a.teacherId);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'not_a_parent' });
  });

  it("answers another organization's parent exactly like a missing user (404)", async () => {
    const other = await link(w.a.adminToken, w.a.studentId, w.b.parentId);
    const missing = await link(w.a.adminToken, w.a.studentId, MISSING_USER);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
  });

  it("answers another organization's child, and a user who is not a student, exactly like a missing one (404)", async () => {
    const other = await link(w.b.adminToken, w.a.studentId, w.b.parentId);
    const missing = await link(w.b.adminToken, MISSING_USER, w.b.parentId);
    const notStudent = await link(w.b.adminToken, w.b.parentId, w.b.parentId);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
    expect(notStudent.json()).toEqual(missing.json());
  });

  it('is 403 PERMISSION_DENIED without MANAGE_ORG (teacher of the class, principal, parent)', async () => {
    const mother = await kit.newAdult(w.a.adminToken, w.a.id, 'PARENT');
    for (const token of [w.a.teacherToken, w.a.principalToken, w.a.parentToken]) {
      const res = await link(token, w.a.studentId, mother.id);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('PERMISSION_DENIED');
    }
  });
});

describe('GET /api/students/{studentId}/parents', () => {
  it('lists the linked parents with id, Arabic name and email to an organization admin', async () => {
    const res = await parents(w.a.adminToken, w.a.studentId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([
      { parentUserId: w.a.parentId, fullNameAr: expect.any(String), email: 'parent@amal-jo.test' },
    ]);
  });

  it("is readable by a teacher of the child's class", async () => {
    const res = await parents(w.a.teacherToken, w.a.studentId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toHaveLength(1);
  });

  it('is 403 PERMISSION_DENIED for a teacher of another class, the principal, the manager and a parent', async () => {
    for (const token of [w.a.otherTeacherToken, w.a.principalToken, w.a.managerToken, w.a.parentToken]) {
      const res = await parents(token, w.a.studentId);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('PERMISSION_DENIED');
    }
  });

  it('is 403 for a former teacher once the child is deactivated from the class', async () => {
    const studentId = await newStudent();
    expect((await parents(w.a.teacherToken, studentId)).statusCode).toBe(200);
    await kit.ok(kit.as(w.a.adminToken).post(`/api/classes/${w.a.classId}/students/${studentId}/deactivate`), 200);
    expect((await parents(w.a.teacherToken, studentId)).statusCode).toBe(403);
  });

  it("answers another organization's child exactly like a missing one (404)", async () => {
    const other = await parents(w.b.teacherToken, w.a.studentId);
    const missing = await parents(w.b.teacherToken, MISSING_USER);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
  });
});

describe('DELETE /api/students/{studentId}/parents/{parentUserId}', () => {
  it('removes the link (204)', async () => {
    const studentId = await newStudent();
    await kit.ok(link(w.a.adminToken, studentId, w.a.parentId));
    const res = await unlink(w.a.adminToken, studentId, w.a.parentId);
    expect(res.statusCode, res.body).toBe(204);
    expect((await parents(w.a.adminToken, studentId)).json()).toEqual([]);
  });

  it('is 404 when there is no such link', async () => {
    const studentId = await newStudent();
    const res = await unlink(w.a.adminToken, studentId, w.a.parentId);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });

  it('is 403 without MANAGE_ORG and 404 for another organization; the link stays', async () => {
    expect((await unlink(w.a.teacherToken, w.a.studentId, w.a.parentId)).statusCode).toBe(403);
    expect((await unlink(w.b.adminToken, w.a.studentId, w.a.parentId)).statusCode).toBe(404);
    expect((await parents(w.a.adminToken, w.a.studentId)).json()).toHaveLength(1);
  });
});
