import { useTestWorld } from '@qiraa/app/testing';
import { inTransaction } from '@qiraa/db';
import { describe, expect, it } from 'vitest';
import { testKit } from '../testing/testKit';

const { t, w } = useTestWorld();
const kit = testKit(t);

const del = (token: string, classId: string) => kit.as(token).delete(`/api/classes/${classId}`);

describe('DELETE /api/classes/{classId}', () => {
  it('deletes an empty class (204): it is gone from the class list and its routes answer 404', async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    const res = await del(w.a.adminToken, cls.id);
    expect(res.statusCode, res.body).toBe(204);
    const ids = (await kit.as(w.a.adminToken).get('/api/classes')).json().map((c: { id: string }) => c.id);
    expect(ids).not.toContain(cls.id);
    expect((await kit.as(w.a.adminToken).get(`/api/classes/${cls.id}/students`)).statusCode).toBe(404);
  });

  it('deletes its code history: the class preview no longer knows the code (404)', async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    await kit.ok(kit.as(w.a.adminToken).post(`/api/classes/${cls.id}/login-code/rotate`, {}), 200);
    expect((await del(w.a.adminToken, cls.id)).statusCode).toBe(204);
    const res = await kit.as().get(`/api/auth/student/class-preview?classCode=${cls.loginCode}`);
    expect(res.statusCode).toBe(404);
  });

  it('deletes its teacher links: the teacher no longer lists the class', async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    await kit.ok(kit.as(w.a.adminToken).post(`/api/classes/${cls.id}/teachers`, { teacherUserId: w.a.teacherId }));
    expect((await del(w.a.adminToken, cls.id)).statusCode).toBe(204);
    expect((await kit.as(w.a.teacherToken).get('/api/auth/me')).json().classIds).not.toContain(cls.id);
  });

  it('is 409 CONFLICT reason class_has_students while a student is active, and keeps the class', async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    await kit.enroll(w.a.adminToken, cls.id);
    const res = await del(w.a.adminToken, cls.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', reason: 'class_has_students' });
    expect((await kit.as(w.a.adminToken).get(`/api/classes/${cls.id}/students`)).statusCode).toBe(200);
  });

  it('deletes a class whose students were all deactivated', async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    const { studentId } = await kit.enroll(w.a.adminToken, cls.id);
    await kit.ok(kit.as(w.a.adminToken).post(`/api/classes/${cls.id}/students/${studentId}/deactivate`), 200);
    const res = await del(w.a.adminToken, cls.id);
    expect(res.statusCode, res.body).toBe(204);
  });

  it('is 403 PERMISSION_DENIED without MANAGE_ORG, even for a teacher of the class', async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    await kit.ok(kit.as(w.a.adminToken).post(`/api/classes/${cls.id}/teachers`, { teacherUserId: w.a.teacherId }));
    for (const token of [w.a.teacherToken, w.a.principalToken, w.a.managerToken]) {
      const res = await del(token, cls.id);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('PERMISSION_DENIED');
    }
  });

  it("answers another organization's class exactly like a missing one (404), and keeps it", async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    const other = await del(w.b.adminToken, cls.id);
    const missing = await del(w.b.adminToken, 'cls_000000000000');
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
    expect((await kit.as(w.a.adminToken).get(`/api/classes/${cls.id}/students`)).statusCode).toBe(200);
  });
});

describe('a class delete racing an enrollment', () => {
  it('answers the enrollment that waited on the deleted class 404 NOT_FOUND, never 500', async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    // The delete's transaction, on its own connection: it holds the class row while the enrollment arrives.
    const deleting = inTransaction(t.db.sql, async ({ sql: tx }) => {
      await tx`select 1 from classes where id = ${cls.id} for update`;
      locked();
      await held;
      await tx`delete from class_login_codes where class_id = ${cls.id}`;
      await tx`delete from classes where id = ${cls.id}`;
    });
    await isLocked;
    const enrolling = kit.as(w.a.adminToken).post(`/api/classes/${cls.id}/students`, { fullNameAr: 'متأخر' });
    // Wait until the enrollment really waits on the row lock, so the test exercises the race.
    for (let i = 0; i < 200; i += 1) {
      const [waiting] = await t.db.sql<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`;
      if (waiting!.n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    release();
    await deleting;
    const res = await enrolling;
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });
});
