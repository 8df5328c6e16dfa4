import { client, useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import { studentGender } from '../queries/studentGender';
import { testKit } from '../testing/testKit';

const { t, w } = useTestWorld();
const kit = testKit(t);

const studentCount = async () =>
  (await t.db.sql<{ n: number }[]>`select count(*)::int as n from users where primary_persona = 'STUDENT'`)[0]!.n;

describe('the student’s grammatical gender', () => {
  it('is set where students are created (POST /api/users STUDENT, the roster route), optional, and read back', async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    const viaUsers = await client(t.app, w.superToken).post('/api/users', {
      primaryPersona: 'STUDENT',
      fullNameAr: 'ليلى',
      classId: cls.id,
      quickCode: '01',
      gender: 'female',
    });
    expect(viaUsers.statusCode, viaUsers.body).toBe(201);
    const viaRoster = await kit
      .as(w.a.adminToken)
      .post(`/api/classes/${cls.id}/students`, { fullNameAr: 'عمر', quickCode: '02', gender: 'male' });
    expect(viaRoster.statusCode, viaRoster.body).toBe(201);
    const unknown = await kit.as(w.a.adminToken).post(`/api/classes/${cls.id}/students`, { fullNameAr: 'نور' });
    expect(unknown.statusCode, unknown.body).toBe(201);

    const roster = await kit.as(w.a.adminToken).get(`/api/classes/${cls.id}/students`);
    expect(roster.json()).toEqual([
      { studentId: viaUsers.json().id, fullNameAr: 'ليلى', quickCode: '01', gender: 'female', active: true },
      { studentId: viaRoster.json().studentId, fullNameAr: 'عمر', quickCode: '02', gender: 'male', active: true },
      { studentId: unknown.json().studentId, fullNameAr: 'نور', quickCode: '03', active: true },
    ]);
    // Other contexts read it through the identity index; an unknown gender, an adult or no user is null.
    expect(await studentGender(t.db.sql, viaUsers.json().id)).toBe('female');
    expect(await studentGender(t.db.sql, viaRoster.json().studentId)).toBe('male');
    expect(await studentGender(t.db.sql, unknown.json().studentId)).toBeNull();
    expect(await studentGender(t.db.sql, w.a.teacherId)).toBeNull();
    expect(await studentGender(t.db.sql, 999_999)).toBeNull();
  });

  it('refuses a value outside the closed code with 422 VALIDATION_ERROR and writes no student', async () => {
    const before = await studentCount();
    for (const gender of ['F', 'girl', 'unknown', '', null, 1]) {
      const viaRoster = await kit
        .as(w.a.adminToken)
        .post(`/api/classes/${w.a.classId}/students`, { fullNameAr: 'خطأ', gender });
      const viaUsers = await client(t.app, w.superToken).post('/api/users', {
        primaryPersona: 'STUDENT',
        fullNameAr: 'خطأ',
        classId: w.a.classId,
        gender,
      });
      for (const res of [viaRoster, viaUsers]) {
        expect(res.statusCode, `${String(gender)}: ${res.body}`).toBe(422);
        expect(res.json().code).toBe('VALIDATION_ERROR');
      }
    }
    expect(await studentCount()).toBe(before);
  });

  it('the database holds it on students only', async () => {
    await expect(t.db.sql`update users set gender = 'female' where id = ${w.a.teacherId}`).rejects.toThrow(
      /users_gender_students_only/,
    );
    await expect(t.db.sql`update users set gender = 'x' where id = ${w.a.studentId}`).rejects.toThrow(/check/);
  });
});
