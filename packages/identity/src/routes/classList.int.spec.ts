import { useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import { testKit } from '../testing/testKit';

const { t, w } = useTestWorld();
const kit = testKit(t);

const classIds = async (token: string, query = '') =>
  (await kit.as(token).get(`/api/classes${query}`)).json().map((c: { id: string }) => c.id);

describe('GET /api/classes?schoolId=', () => {
  it('narrows a teacher’s and a principal’s classes to the school asked for, as it does an admin’s', async () => {
    expect(await classIds(w.a.teacherToken)).toEqual([w.a.classId]);
    expect(await classIds(w.a.teacherToken, `?schoolId=${w.a.schoolId}`)).toEqual([w.a.classId]);
    expect(await classIds(w.a.teacherToken, `?schoolId=${w.a.otherSchoolId}`)).toEqual([]);
    expect(await classIds(w.a.principalToken, `?schoolId=${w.a.otherSchoolId}`)).toEqual([]);
    expect(await classIds(w.a.principalToken, `?schoolId=${w.a.schoolId}`)).toContain(w.a.classId);
    expect(await classIds(w.a.adminToken, `?schoolId=${w.a.otherSchoolId}`)).toEqual([w.a.otherClassId]);
  });
});
