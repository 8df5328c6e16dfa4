import { client, useTestWorld } from '@qiraa/app/testing';
import { insertBlueprintCell } from '@qiraa/content/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultCalendar, defaultWindowOn } from '../engine/calendar';
import { readWordList, startOralReading, startSitting } from '../testing/attempts';
import { calendarOpenToday, yearsAround } from '../testing/years';

const { t, w } = useTestWorld();
const { current, next, today } = yearsAround();
const deps = () => ({ sql: t.runtime.sql, store: t.runtime.store });

let classId: string;
let notScreenedClassId: string;
let nextYearClassId: string;
const student: Record<'s1' | 's2' | 's3' | 's4', number> = { s1: 0, s2: 0, s3: 0, s4: 0 };
let gone: number;
const ids: Record<string, string> = {};

const as = (token: string) => client(t.app, token);
const page = (token: string, id: string, query = '') => as(token).get(`/api/teacher/classes/${id}/taqyeem${query}`);
type Cell = { status: string; attemptId: string | null; at: string | null; result: unknown; restarts: number };
type Page = {
  window: string;
  students: { studentId: number; firstName: string; cells: Record<string, Cell> }[];
  [k: string]: unknown;
};
const cellsOf = (body: Page, id: number) =>
  body.students.find((s) => s.studentId === id)!.cells as Record<
    'digital' | 'oral_text' | 'oral_familiar_words' | 'oral_pseudowords',
    Cell
  >;

async function newClass(schoolId: string, academicYear: string, name: string) {
  const root = as(w.superToken);
  const res = await root.post('/api/classes', { schoolId, name, grade: 2, academicYear });
  const id = res.json().id as string;
  expect((await root.post(`/api/classes/${id}/teachers`, { teacherUserId: w.a.teacherId })).statusCode).toBe(201);
  return id;
}
async function enroll(id: string, fullNameAr: string) {
  const res = await as(w.superToken).post(`/api/classes/${id}/students`, { fullNameAr });
  expect(res.statusCode).toBe(201);
  return res.json().studentId as number;
}

beforeAll(async () => {
  const sql = t.runtime.sql;
  classId = await newClass(w.a.schoolId, current, 'الصف الثاني ج');
  notScreenedClassId = await newClass(w.a.otherSchoolId, current, 'الصف الثاني د');
  nextYearClassId = await newClass(w.a.schoolId, next, 'الصف الثاني هـ');
  student.s1 = await enroll(classId, 'أحمد علي');
  student.s2 = await enroll(classId, 'بشرى سالم');
  student.s3 = await enroll(classId, 'جود');
  student.s4 = await enroll(classId, 'دانة');
  gone = await enroll(classId, 'زيد');
  await as(w.superToken).post(`/api/classes/${classId}/students/${gone}/deactivate`);

  // BOY: a measures cell without the pseudoword list; MOY: a measure the grade does not have (catalog gap);
  // EOY: a legacy sub-skill cell; the other school screens nothing in BOY.
  await insertBlueprintCell(sql, {
    organizationId: w.a.id,
    grade: 2,
    window: 'BOY',
    kind: 'measures',
    measures: ['word_recognition', 'orf_text', 'familiar_words_list'],
  });
  await insertBlueprintCell(sql, {
    organizationId: w.a.id,
    grade: 2,
    window: 'MOY',
    kind: 'measures',
    measures: ['text2_comprehension', 'orf_text'],
  });
  await insertBlueprintCell(sql, {
    organizationId: w.a.id,
    grade: 2,
    window: 'EOY',
    kind: 'skills',
    subSkillIds: ['legacy_sub_skill'],
  });
  await insertBlueprintCell(sql, {
    organizationId: w.a.id,
    schoolId: w.a.otherSchoolId,
    grade: 2,
    window: 'BOY',
    kind: 'not_screened',
  });

  const at = (studentId: number, window: 'BOY' | 'MOY' = 'BOY') => ({
    organizationId: w.a.id,
    schoolId: w.a.schoolId,
    classId,
    studentId,
    academicYear: current,
    window,
  });
  const d = deps();
  // s1: digital done, oral text in progress, familiar words done; a MOY sitting.
  const s1Sitting = await startSitting(d, at(student.s1));
  await s1Sitting.complete({ raw: 7, max: 10 });
  ids.s1Digital = s1Sitting.attemptId;
  ids.s1Reading = (await startOralReading(d, at(student.s1))).attemptId;
  ids.s1Words = (await readWordList(d, at(student.s1), 'oral_familiar_words', { wcpm: 31 })).attemptId;
  ids.s1Moy = (await startSitting(d, at(student.s1, 'MOY'))).attemptId;
  // s2: digital stopped by the teacher; oral text read, then voided.
  const s2Sitting = await startSitting(d, at(student.s2));
  await s2Sitting.stop();
  ids.s2Digital = s2Sitting.attemptId;
  const s2Reading = await startOralReading(d, at(student.s2));
  await s2Reading.stop();
  ids.s2Reading = s2Reading.attemptId;
  // s3: a sitting voided and replaced by one in progress.
  ids.s3First = (await startSitting(d, at(student.s3))).attemptId;
  const teacher = as(w.a.teacherToken);
  for (const [kind, targetId] of [
    ['oral_text', ids.s2Reading],
    ['digital_sitting', ids.s3First],
  ] as const) {
    const res = await teacher.post(`/api/teacher/classes/${classId}/taqyeem/void`, {
      kind,
      targetId,
      reason: 'started_by_mistake',
    });
    expect(res.statusCode).toBe(201);
  }
  ids.s3Second = (await startSitting(d, at(student.s3))).attemptId;
  // Evidence of another class of the same student is not this page's.
  await startSitting(d, { ...at(student.s4), classId: w.a.otherClassId });
}, 120_000);

describe('GET /api/teacher/classes/{classId}/taqyeem', () => {
  it('shows every cell status of the class’s active students', async () => {
    const res = await page(w.a.teacherToken, classId, '?window=BOY');
    expect(res.statusCode).toBe(200);
    const body = res.json() as Page;
    expect(body).toMatchObject({ classId, grade: 2, academicYear: current, window: 'BOY' });
    expect(body.students.map((s) => [s.studentId, s.firstName])).toEqual([
      [student.s1, 'أحمد'],
      [student.s2, 'بشرى'],
      [student.s3, 'جود'],
      [student.s4, 'دانة'],
    ]);

    const s1 = cellsOf(body, student.s1);
    expect(s1.digital).toMatchObject({
      status: 'done',
      attemptId: ids.s1Digital,
      result: { raw: 7, max: 10 },
      restarts: 0,
    });
    expect(s1.oral_text).toMatchObject({ status: 'in_progress', attemptId: ids.s1Reading, result: null });
    expect(s1.oral_familiar_words).toMatchObject({ status: 'done', attemptId: ids.s1Words, result: { wcpm: 31 } });
    expect(s1.oral_pseudowords).toEqual({
      status: 'unavailable',
      attemptId: null,
      at: null,
      result: null,
      restarts: 0,
    });

    const s2 = cellsOf(body, student.s2);
    expect(s2.digital).toMatchObject({ status: 'stopped', attemptId: ids.s2Digital });
    expect(s2.oral_text).toMatchObject({ status: 'restarted_pending', attemptId: null, result: null, restarts: 1 });
    expect(s2.oral_text.at).not.toBeNull();
    expect(s2.oral_familiar_words).toMatchObject({ status: 'not_started', attemptId: null });

    const s3 = cellsOf(body, student.s3);
    expect(s3.digital).toMatchObject({ status: 'in_progress', attemptId: ids.s3Second, restarts: 1 });

    const s4 = cellsOf(body, student.s4);
    expect(Object.values(s4).map((c) => c.status)).toEqual([
      'not_started',
      'not_started',
      'not_started',
      'unavailable',
    ]);
  });

  it('counts per cell and plans the day from the catalog’s minutes; no percentage, no codes', async () => {
    const res = await page(w.a.teacherToken, classId, '?window=BOY');
    const body = res.json();
    expect(body.blueprint).toMatchObject({ status: 'ok' });
    expect(body.blueprint.measures.map((m: { measureCode: string; cell: string }) => [m.measureCode, m.cell])).toEqual([
      ['word_recognition', 'digital'],
      ['orf_text', 'oral_text'],
      ['familiar_words_list', 'oral_familiar_words'],
    ]);
    expect(body.summary).toEqual({
      enrolled: 4,
      complete: { digital: 1, oral_text: 0, oral_familiar_words: 1, oral_pseudowords: 0 },
      remaining: { digital: 3, oral_text: 4, oral_familiar_words: 3, oral_pseudowords: 0 },
    });
    expect(body.dayPlan).toEqual({
      digital: { studentCount: 3, minutesPerStudent: 4, totalMinutes: 12 },
      oral_text: { studentCount: 4, minutesPerStudent: 3, totalMinutes: 12 },
      oral_familiar_words: { studentCount: 3, minutesPerStudent: 2, totalMinutes: 6 },
      oral_pseudowords: { studentCount: 0, minutesPerStudent: 0, totalMinutes: 0 },
    });
    const [cls] = await t.runtime.sql<{ login_code: string }[]>`select login_code from classes where id = ${classId}`;
    expect(res.body).not.toContain(cls!.login_code);
    expect(res.body).not.toMatch(/percent|quickCode|loginCode/i);
    expect(body.windows).toHaveLength(3);
    expect(body.windows[0]).toEqual({
      window: 'BOY',
      startsOn: expect.any(String),
      endsOn: expect.any(String),
      open: expect.any(Boolean),
    });
    expect(body.windowState.canOpen).toBe(false);
  });

  it('reads the blueprint: catalog gap, legacy skill cell, not screened', async () => {
    const moy = (await page(w.a.teacherToken, classId, '?window=MOY')).json() as Page & { blueprint: unknown };
    expect(moy.blueprint).toMatchObject({ status: 'catalog_gap', measures: [{ measureCode: 'orf_text' }] });
    const s1 = cellsOf(moy, student.s1);
    // Evidence shows even in a cell the blueprint does not list.
    expect(s1.digital).toMatchObject({ status: 'in_progress', attemptId: ids.s1Moy });
    expect(cellsOf(moy, student.s2).digital.status).toBe('unavailable');
    expect(cellsOf(moy, student.s2).oral_text.status).toBe('not_started');

    const eoy = (await page(w.a.teacherToken, classId, '?window=EOY')).json();
    expect(eoy.blueprint).toMatchObject({ status: 'legacy_skill_cell', measures: [] });
    expect(Object.values(cellsOf(eoy, student.s4)).map((c) => c.status)).toEqual([
      'not_started',
      'unavailable',
      'unavailable',
      'unavailable',
    ]);
    expect(eoy.dayPlan.digital.minutesPerStudent).toBeGreaterThan(0);

    const none = (await page(w.a.teacherToken, notScreenedClassId, '?window=BOY')).json();
    expect(none.blueprint.status).toBe('not_screened');
    expect(none.summary.enrolled).toBe(0);
  });

  it('defaults to the open window, else the last one started', async () => {
    const omitted = (await page(w.a.teacherToken, classId)).json();
    expect(omitted.window).toBe(defaultWindowOn(defaultCalendar(current), today));
    const calendar = calendarOpenToday();
    const set = await as(w.a.adminToken).put(`/api/admin/assessment-windows/${current}`, {
      organizationId: w.a.id,
      windows: calendar.windows,
    });
    expect(set.statusCode).toBe(200);
    const opened = (await page(w.a.teacherToken, classId)).json();
    expect(opened.window).toBe(calendar.open);
    expect(opened.windowState).toEqual({ openTrigger: 'calendar', canOpen: false });
    expect(opened.windows.find((x: { window: string }) => x.window === calendar.open).open).toBe(true);
  });

  it('canOpen: an administrator could open the window, a teacher cannot', async () => {
    const admin = (await page(w.a.adminToken, nextYearClassId, '?window=BOY')).json();
    expect(admin.windowState).toEqual({ openTrigger: null, canOpen: true });
    const teacher = (await page(w.a.teacherToken, nextYearClassId, '?window=BOY')).json();
    expect(teacher.windowState).toEqual({ openTrigger: null, canOpen: false });
    await as(w.a.adminToken).post(`/api/admin/assessment-windows/${next}/BOY/open`, { organizationId: w.a.id });
    const manual = (await page(w.a.teacherToken, nextYearClassId)).json();
    expect(manual).toMatchObject({ window: 'BOY', windowState: { openTrigger: 'manual', canOpen: false } });
  });

  it('is the holding teacher’s: 404 for a class not held, another organization’s or a missing one', async () => {
    expect((await page(w.a.teacherToken, w.a.otherClassId)).statusCode).toBe(404);
    expect((await page(w.a.otherTeacherToken, classId)).statusCode).toBe(404);
    expect((await page(w.a.teacherToken, w.b.classId)).statusCode).toBe(404);
    expect((await page(w.a.teacherToken, 'cls_AAAAAAAAAAAA')).statusCode).toBe(404);
    expect((await page(w.a.adminToken, w.b.classId)).statusCode).toBe(404);
    for (const token of [w.a.principalToken, w.a.managerToken, w.a.parentToken, w.a.studentToken]) {
      expect((await page(token, classId)).statusCode).toBe(403);
      expect((await page(token, w.b.classId)).statusCode).toBe(404);
    }
    expect((await page(w.a.adminToken, classId)).statusCode).toBe(200);
    expect((await page(w.superToken, w.b.classId)).statusCode).toBe(200);
    expect((await page(w.a.teacherToken, classId, '?window=XOY')).statusCode).toBe(422);
  });
});
