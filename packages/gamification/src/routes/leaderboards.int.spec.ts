import { client, useTestWorld } from '@qiraa/app/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { LEADERBOARD_FRAMING } from '../queries/leaderboardFraming';

const { t, w } = useTestWorld();
let serial = 0;
/** Today in organization A's time zone (Asia/Amman), as the server counts it. */
let today: string;

/** The school day `offset` days from today (negative: in the past). */
function day(offset: number): string {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}

const admin = () => client(t.app, w.a.adminToken);

async function ingest(studentId: number, sourceKind: string, offset: number, sessionId = `lb-${serial}`) {
  const schoolDay = day(offset);
  const res = await admin().post('/api/gamification/mastery-events', {
    kind: 'mastery_event',
    engineEventId: `lb-${process.pid}-${serial++}`,
    studentId,
    sourceKind,
    schoolDay,
    occurredAt: `${schoolDay}T08:00:00Z`,
    sessionId,
  });
  expect(res.statusCode, res.body).toBe(201);
}

async function newStudent(classId: string): Promise<number> {
  const res = await admin().post(`/api/classes/${classId}/students`, { fullNameAr: 'طالب' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().studentId;
}

const get = (token: string, url: string) => client(t.app, token).get(url);
const board = async (token: string, url: string) => {
  const res = await get(token, url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const counts = (entries: { studentId: number; masteryEventCount: number; bandProgressionCount: number }[]) =>
  entries.map((e) => [e.studentId, e.masteryEventCount, e.bandProgressionCount]);

/*
 * Class 1 (w.a.classId, school A): s0 (the world's student), s1, s2, s3 (no event).
 * Class 2 (a second class of the same teacher, in school A's sister school): s4, s5.
 */
let class2: string;
let s0: number;
let s1: number;
let s2: number;
let s3: number;
let s4: number;
let s5: number;

beforeAll(async () => {
  const [row] = await t.db.sql<{ today: string }[]>`
    select (now() at time zone time_zone)::date::text as today from organizations where id = ${w.a.id}`;
  today = row!.today;

  const created = await admin().post('/api/classes', {
    schoolId: w.a.otherSchoolId,
    name: 'الصف الثاني ج',
    grade: 2,
    academicYear: '2026-2027',
  });
  expect(created.statusCode, created.body).toBe(201);
  class2 = created.json().id;
  const assigned = await admin().post(`/api/classes/${class2}/teachers`, { teacherUserId: w.a.teacherId });
  expect(assigned.statusCode, assigned.body).toBe(201);

  s0 = w.a.studentId;
  s1 = await newStudent(w.a.classId);
  s2 = await newStudent(w.a.classId);
  s3 = await newStudent(w.a.classId);
  s4 = await newStudent(class2);
  s5 = await newStudent(class2);

  // s0: 3 events, 2 band progressions.
  await ingest(s0, 'band_progression', 0);
  await ingest(s0, 'band_progression', -3);
  await ingest(s0, 'subskill_state_up', -1);
  // s1: 4 events, none a band progression; one more dated tomorrow, which no window holds yet.
  for (const offset of [0, -1, -2, -5]) await ingest(s1, 'subskill_state_up', offset);
  await ingest(s1, 'subskill_state_up', 1);
  // s2: on the edges of the default 14-day window: 13 days ago is in, 14 days ago is out; 20 days ago.
  await ingest(s2, 'band_progression', -13);
  await ingest(s2, 'band_progression', -14);
  await ingest(s2, 'cbm_trend_above_goal', -20);
  // s4: 2 events; s5: 10 bundle completions in one session (its XP stops at the 200 per-session cap).
  await ingest(s4, 'bundle_completion', 0);
  await ingest(s4, 'band_progression', -2);
  for (let i = 0; i < 10; i++) await ingest(s5, 'bundle_completion', -1, 'lb-capped-session');
}, 120_000);

describe('class leaderboard', () => {
  it('counts each student’s mastery events of the last 14 days, zero-event students included', async () => {
    const body = await board(w.a.teacherToken, `/api/leaderboards/class/${w.a.classId}`);
    expect(body).toMatchObject({
      scope: 'class',
      view: 'by_mastery_events',
      windowDays: 14,
      framing: LEADERBOARD_FRAMING.by_mastery_events,
    });
    expect(body.entries).toEqual([
      {
        studentId: s1,
        masteryEventCount: 4,
        bandProgressionCount: 0,
        sourceKindBreakdown: { subskill_state_up: 4 },
      },
      {
        studentId: s0,
        masteryEventCount: 3,
        bandProgressionCount: 2,
        sourceKindBreakdown: { band_progression: 2, subskill_state_up: 1 },
      },
      { studentId: s2, masteryEventCount: 1, bandProgressionCount: 1, sourceKindBreakdown: { band_progression: 1 } },
      { studentId: s3, masteryEventCount: 0, bandProgressionCount: 0, sourceKindBreakdown: {} },
    ]);
  });

  it('orders by band progressions in the by_band_progression view, ties by studentId', async () => {
    const body = await board(w.a.teacherToken, `/api/leaderboards/class/${w.a.classId}?view=by_band_progression`);
    expect(body.view).toBe('by_band_progression');
    expect(body.framing).toEqual(LEADERBOARD_FRAMING.by_band_progression);
    expect(counts(body.entries)).toEqual([
      [s0, 3, 2],
      [s2, 1, 1],
      [s1, 4, 0],
      [s3, 0, 0],
    ]);
  });

  it('holds exactly the last windowDays school days up to today in the organization’s time zone', async () => {
    const url = (windowDays: number) => `/api/leaderboards/class/${w.a.classId}?windowDays=${windowDays}`;
    const byStudent = async (windowDays: number) =>
      Object.fromEntries(
        (await board(w.a.teacherToken, url(windowDays))).entries.map(
          (e: { studentId: number; masteryEventCount: number }) => [e.studentId, e.masteryEventCount],
        ),
      );
    // Only today's events (s1's event of tomorrow is in no window).
    expect(await byStudent(1)).toEqual({ [s0]: 1, [s1]: 1, [s2]: 0, [s3]: 0 });
    // 13 days ago is the first day of a 14-day window; 14 days ago is the first day of a 15-day one.
    expect((await byStudent(13))[s2]).toBe(0);
    expect((await byStudent(14))[s2]).toBe(1);
    expect((await byStudent(15))[s2]).toBe(2);
    expect((await byStudent(21))[s2]).toBe(3);
    expect(await byStudent(90)).toEqual({ [s0]: 3, [s1]: 4, [s2]: 3, [s3]: 0 });
  });

  it('refuses windowDays outside 1-90 and an unknown view with 422', async () => {
    for (const query of ['windowDays=0', 'windowDays=91', 'windowDays=1.5', 'windowDays=two', 'view=by_xp']) {
      const res = await get(w.a.teacherToken, `/api/leaderboards/class/${w.a.classId}?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('teacher leaderboard', () => {
  it('rolls up all the teacher’s classes with per-class totals', async () => {
    const body = await board(w.a.teacherToken, `/api/leaderboards/teacher/${w.a.teacherId}`);
    expect(body).toMatchObject({ scope: 'teacher', view: 'by_mastery_events', windowDays: 14 });
    expect(counts(body.entries)).toEqual([
      [s5, 10, 0],
      [s1, 4, 0],
      [s0, 3, 2],
      [s4, 2, 1],
      [s2, 1, 1],
      [s3, 0, 0],
    ]);
    expect(body.classes).toEqual(
      [
        { classId: w.a.classId, masteryEventCount: 8, bandProgressionCount: 3 },
        { classId: class2, masteryEventCount: 12, bandProgressionCount: 1 },
      ].sort((a, b) => (a.classId < b.classId ? -1 : 1)),
    );
  });

  it('shows a principal only the teacher’s classes of the principal’s school; an admin all of them', async () => {
    const principal = await board(w.a.principalToken, `/api/leaderboards/teacher/${w.a.teacherId}`);
    expect(principal.classes).toEqual([{ classId: w.a.classId, masteryEventCount: 8, bandProgressionCount: 3 }]);
    expect(principal.entries.map((e: { studentId: number }) => e.studentId)).toEqual([s1, s0, s2, s3]);
    const adminBoard = await board(w.a.adminToken, `/api/leaderboards/teacher/${w.a.teacherId}?windowDays=1`);
    expect(adminBoard.classes).toHaveLength(2);
    expect(counts(adminBoard.entries)).toEqual([
      [s0, 1, 1],
      [s1, 1, 0],
      [s4, 1, 0],
      [s2, 0, 0],
      [s3, 0, 0],
      [s5, 0, 0],
    ]);
  });

  it('answers a teacher without classes with empty entries and classes', async () => {
    const lone = await admin().post('/api/users', {
      primaryPersona: 'TEACHER',
      email: 'lone-teacher@amal-jo.test',
      password: 'correct horse battery',
      fullNameAr: 'معلم',
      organizationId: w.a.id,
    });
    expect(lone.statusCode, lone.body).toBe(201);
    const body = await board(w.a.adminToken, `/api/leaderboards/teacher/${lone.json().id}`);
    expect(body).toMatchObject({ entries: [], classes: [] });
  });
});

describe('school leaderboard', () => {
  it('holds the active students of every class of the school', async () => {
    const schoolA = await board(w.a.principalToken, `/api/leaderboards/school/${w.a.schoolId}`);
    expect(schoolA).toMatchObject({ scope: 'school', view: 'by_mastery_events', windowDays: 14 });
    expect(counts(schoolA.entries)).toEqual([
      [s1, 4, 0],
      [s0, 3, 2],
      [s2, 1, 1],
      [s3, 0, 0],
    ]);
    const sister = await board(
      w.a.adminToken,
      `/api/leaderboards/school/${w.a.otherSchoolId}?view=by_band_progression`,
    );
    expect(counts(sister.entries)).toEqual([
      [s4, 2, 1],
      [s5, 10, 0],
    ]);
    expect(sister.entries[1].sourceKindBreakdown).toEqual({ bundle_completion: 10 });
  });

  it('leaves out a deactivated student', async () => {
    const gone = await newStudent(w.a.classId);
    await ingest(gone, 'band_progression', 0);
    const ids = async () =>
      (await board(w.a.principalToken, `/api/leaderboards/school/${w.a.schoolId}`)).entries.map(
        (e: { studentId: number }) => e.studentId,
      );
    expect(await ids()).toContain(gone);
    const res = await admin().post(`/api/classes/${w.a.classId}/students/${gone}/deactivate`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await ids()).not.toContain(gone);
  });
});

describe('boards count mastery events, never XP', () => {
  it('are unchanged by XP ledger rows, and count events past the per-session XP cap', async () => {
    const urls = [
      `/api/leaderboards/class/${w.a.classId}`,
      `/api/leaderboards/teacher/${w.a.teacherId}`,
      `/api/leaderboards/school/${w.a.schoolId}`,
      `/api/leaderboards/school/${w.a.otherSchoolId}`,
    ];
    const before = await Promise.all(urls.map((url) => board(w.a.adminToken, url)));
    // A large XP credit for a student with no event, and one for the capped student, straight into the ledger.
    for (const [studentId, amount] of [
      [s3, 5000],
      [s5, 700],
    ] as const) {
      await t.db.sql`
        insert into gam_xp_ledger (id, event_id, student_id, mastery_event_id, kind, amount, session_id, rule_version, recorded_at)
        values (nextval('gam_xp_transaction_id_seq'), gen_random_uuid(), ${studentId}, gen_random_uuid(), 'mastery_credit',
                ${amount}, 'lb-xp-only', 1, now())`;
    }
    const profile = await board(w.a.adminToken, `/api/students/${s3}/gamification/profile`);
    expect(profile.xpBalance).toBe(5000);
    const after = await Promise.all(urls.map((url) => board(w.a.adminToken, url)));
    expect(after).toEqual(before);
    const capped = await board(w.a.adminToken, `/api/students/${s5}/gamification/profile`);
    expect(capped.xpBalance - 700).toBeLessThanOrEqual(200);
    expect(after[3].entries.find((e: { studentId: number }) => e.studentId === s5).masteryEventCount).toBe(10);
  });
});

describe('leaderboard access', () => {
  const routes = () => [
    `/api/leaderboards/class/${w.a.classId}`,
    `/api/leaderboards/teacher/${w.a.teacherId}`,
    `/api/leaderboards/school/${w.a.schoolId}`,
  ];

  it('needs a token', async () => {
    for (const url of routes()) expect((await client(t.app).get(url)).statusCode, url).toBe(401);
  });

  it('refuses a student token with 403 on every route, its own class too, before validating the query', async () => {
    for (const url of [...routes(), `/api/leaderboards/class/${w.b.classId}`]) {
      for (const suffix of ['', '?windowDays=0']) {
        const res = await get(w.a.studentToken, url + suffix);
        expect(res.statusCode, url + suffix).toBe(403);
        expect(res.json().code).toBe('PERMISSION_DENIED');
      }
    }
  });

  it('class board: its teacher, its school’s principal, admins; another teacher’s class is 404', async () => {
    const url = `/api/leaderboards/class/${w.a.classId}`;
    for (const token of [w.a.teacherToken, w.a.principalToken, w.a.adminToken, w.superToken]) {
      expect((await get(token, url)).statusCode).toBe(200);
    }
    expect((await get(w.a.otherTeacherToken, url)).statusCode).toBe(404);
    expect((await get(w.a.teacherToken, `/api/leaderboards/class/${w.a.otherClassId}`)).statusCode).toBe(404);
    expect((await get(w.a.principalToken, `/api/leaderboards/class/${w.a.otherClassId}`)).statusCode).toBe(404);
    expect((await get(w.a.parentToken, url)).statusCode).toBe(403);
    expect((await get(w.a.managerToken, url)).statusCode).toBe(403);
    expect((await get(w.b.teacherToken, url)).statusCode).toBe(404);
    expect((await get(w.b.adminToken, url)).statusCode).toBe(404);
    expect((await get(w.a.adminToken, '/api/leaderboards/class/cls_AAAAAAAAAAAA')).statusCode).toBe(404);
  });

  it('teacher board: the teacher, the principal of a school they teach in, admins; another teacher is 404', async () => {
    const url = `/api/leaderboards/teacher/${w.a.teacherId}`;
    for (const token of [w.a.teacherToken, w.a.principalToken, w.a.adminToken, w.superToken]) {
      expect((await get(token, url)).statusCode).toBe(200);
    }
    expect((await get(w.a.otherTeacherToken, url)).statusCode).toBe(404);
    expect((await get(w.a.parentToken, url)).statusCode).toBe(403);
    expect((await get(w.a.managerToken, url)).statusCode).toBe(403);
    expect((await get(w.b.adminToken, url)).statusCode).toBe(404);
    expect((await get(w.a.adminToken, `/api/leaderboards/teacher/${w.b.teacherId}`)).statusCode).toBe(404);
    // A user who is not a teacher has no teacher board.
    expect((await get(w.a.adminToken, `/api/leaderboards/teacher/${w.a.studentId}`)).statusCode).toBe(404);
    expect((await get(w.a.adminToken, '/api/leaderboards/teacher/999999')).statusCode).toBe(404);
  });

  it('school board: its principal and admins only; a teacher is 403, another school’s principal 404', async () => {
    const url = `/api/leaderboards/school/${w.a.schoolId}`;
    for (const token of [w.a.principalToken, w.a.adminToken, w.superToken]) {
      expect((await get(token, url)).statusCode).toBe(200);
    }
    const teacher = await get(w.a.teacherToken, url);
    expect(teacher.statusCode).toBe(403);
    expect(teacher.json().code).toBe('PERMISSION_DENIED');
    expect((await get(w.a.parentToken, url)).statusCode).toBe(403);
    expect((await get(w.a.managerToken, url)).statusCode).toBe(403);
    expect((await get(w.a.principalToken, `/api/leaderboards/school/${w.a.otherSchoolId}`)).statusCode).toBe(404);
    expect((await get(w.b.principalToken, url)).statusCode).toBe(404);
    expect((await get(w.b.teacherToken, url)).statusCode).toBe(404);
    expect((await get(w.a.adminToken, '/api/leaderboards/school/sch_AAAAAAAAAAAA')).statusCode).toBe(404);
  });
});
