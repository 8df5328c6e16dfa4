import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { importDemoFiles, setWindows, voidAttempt, writeCounts } from '../testing/oralTestKit';

const { t, w } = useTestWorld();
const YEAR = '2026-2027';
let teacher: Client;
let passage: { id: string; word_count: number };
let grade3Passage: string;

beforeAll(async () => {
  const sql = t.db.sql;
  await importDemoFiles(sql, ['g2-boy-screening-form.json', 'g3-boy-screening-form.json']);
  [passage] = (await sql`
    select id, word_count from content_passages where external_id = 'g2-boy-screen-text1'`) as unknown as [
    { id: string; word_count: number },
  ];
  [{ id: grade3Passage }] = (await sql`
    select id from content_passages where grade = 3 limit 1`) as unknown as [{ id: string }];
  await setWindows(sql, w.a.id, YEAR, 'BOY');
  await setWindows(sql, w.b.id, YEAR, 'BOY');
  teacher = client(t.app, w.a.teacherToken);
}, 120_000);

const start = (as: Client = teacher, body: object = { studentId: w.a.studentId, passageId: passage.id }) =>
  as.post('/api/orf/assessments', body);
const started = async () => {
  const res = await start();
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
};
const mark = (id: string, wordIndex: number, m: string, as: Client = teacher) =>
  as.post(`/api/orf/assessments/${id}/mark`, { wordIndex, mark: m });
const stop = (id: string, lastWordIndex: number, elapsedSeconds: number, as: Client = teacher) =>
  as.post(`/api/orf/assessments/${id}/stop`, { lastWordIndex, elapsedSeconds });
const attemptRow = async (id: string) =>
  (await t.db.sql`select * from asm_attempts where attempt_id = ${id}`)[0] as Record<string, unknown> | undefined;

/** A refused request writes nothing: no stream, no event, no attempt row. */
async function expectNothingWritten(request: () => Promise<{ statusCode: number; body: string }>, status: number) {
  const before = await writeCounts(t.db.sql);
  const res = await request();
  expect(res.statusCode, res.body).toBe(status);
  expect(await writeCounts(t.db.sql)).toEqual(before);
  return JSON.parse(res.body);
}

describe('POST /api/orf/assessments', () => {
  it('opens orf-<id> with the attempt header in the open window and answers the reading in progress', async () => {
    const res = await start();
    expect(res.statusCode, res.body).toBe(201);
    const reading = res.json();
    expect(reading).toMatchObject({
      studentId: w.a.studentId,
      classId: w.a.classId,
      grade: 2,
      academicYear: YEAR,
      window: 'BOY',
      passageId: passage.id,
      wordCount: passage.word_count,
      durationSeconds: 60,
      status: 'in_progress',
      voided: false,
      marks: [],
      attempted: null,
      wcpm: null,
      accuracyBand: null,
      rateCut: null,
      provisional: null,
    });
    expect(reading.words).toHaveLength(passage.word_count);
    const [event] = await t.db.sql`
      select event_type, data from es_events where stream_id = ${`orf-${reading.id}`}`;
    expect(event).toMatchObject({
      event_type: 'OralReadingStarted',
      data: {
        attemptId: reading.id,
        kind: 'oral_text',
        cell: 'oral_text',
        organizationId: w.a.id,
        schoolId: w.a.schoolId,
        classId: w.a.classId,
        startedBy: w.a.teacherId,
        supersedesVoidId: null,
        durationSeconds: 60,
      },
    });
    expect(await attemptRow(reading.id)).toMatchObject({ status: 'in_progress', cell: 'oral_text' });
  });

  it('refuses another organization’s or an unknown child or passage with 404, writing nothing', async () => {
    await expectNothingWritten(() => start(teacher, { studentId: w.b.studentId, passageId: passage.id }), 404);
    await expectNothingWritten(() => start(teacher, { studentId: 999_999, passageId: passage.id }), 404);
    await expectNothingWritten(() => start(teacher, { studentId: w.a.studentId, passageId: 'psg_nope' }), 404);
  });

  it('answers 404 for another organization’s passage before the caller’s reach (tenant before permission)', async () => {
    const [{ id }] = (await t.db.sql`
      insert into content_passages (id, organization_id, external_id, version, grade, title_ar, body_ar, word_count,
                                    status, content_hash)
      values ('psg_noorpassage01', ${w.b.id}, 'noor-passage', 1, 2, 'نص', 'ذهب سامر إلى الحديقة', 4, 'operational', 'h')
      returning id`) as unknown as [{ id: string }];
    for (const token of [w.a.teacherToken, w.a.otherTeacherToken, w.a.adminToken]) {
      const body = { studentId: w.a.studentId, passageId: id };
      await expectNothingWritten(() => start(client(t.app, token), body), 404);
    }
  });

  it('lets only a teacher of the child record (another teacher, staff, parent, student: 403)', async () => {
    for (const token of [
      w.a.otherTeacherToken,
      w.a.adminToken,
      w.a.principalToken,
      w.a.parentToken,
      w.a.studentToken,
    ]) {
      await expectNothingWritten(() => start(client(t.app, token)), 403);
    }
  });

  it('refuses a passage of another grade (422 passage_grade_mismatch)', async () => {
    const body = await expectNothingWritten(
      () => start(teacher, { studentId: w.a.studentId, passageId: grade3Passage }),
      422,
    );
    expect(body).toMatchObject({ reason: 'passage_grade_mismatch' });
  });

  it('refuses between windows (409 no_open_window) and a strict body (400)', async () => {
    await setWindows(t.db.sql, w.a.id, YEAR, null);
    try {
      expect(await expectNothingWritten(() => start(), 409)).toMatchObject({ reason: 'no_open_window' });
    } finally {
      await setWindows(t.db.sql, w.a.id, YEAR, 'BOY');
    }
    await expectNothingWritten(
      () => start(teacher, { studentId: w.a.studentId, passageId: passage.id, note: 'x' }),
      400,
    );
  });
});

describe('mark and stop: the timed-grid rules', () => {
  it('counts attempted = last + 1, drops marks past it, takes each word’s latest mark, WCPM over the seconds', async () => {
    const id = await started();
    for (const [index, m] of [
      [3, 'error'],
      [5, 'error'],
      [5, 'self_correction'],
      [7, 'error'],
      [7, 'clear'],
      [35, 'error'],
    ] as const) {
      const res = await mark(id, index, m);
      expect(res.statusCode, res.body).toBe(200);
    }
    const marked = (
      await t.app.inject({
        method: 'GET',
        url: `/api/orf/assessments/${id}`,
        headers: { authorization: `Bearer ${w.a.teacherToken}` },
      })
    ).json();
    expect(marked.marks).toEqual([
      { wordIndex: 3, mark: 'error' },
      { wordIndex: 5, mark: 'self_correction' },
      { wordIndex: 7, mark: 'clear' },
      { wordIndex: 35, mark: 'error' },
    ]);
    const res = await stop(id, 29, 45);
    expect(res.statusCode, res.body).toBe(200);
    // 30 attempted, 1 error (35 is past the last word), 29 correct in 45 s: 38.7 wcpm, 96 % accuracy.
    // Global provisional cuts, grade 2 BOY: accuracy on_track (90), rate strong (35), the lower: on_track.
    expect(res.json()).toMatchObject({
      status: 'stopped',
      lastWordIndex: 29,
      elapsedSeconds: 45,
      attempted: 30,
      errors: 1,
      correct: 29,
      wcpm: 38.7,
      accuracy: 96,
      accuracyBand: 'on_track',
      rateBand: 'strong',
      band: 'on_track',
      bandBasis: 'lower_of',
      skippedReason: null,
      rateCut: 'applied',
      provisional: true,
      cutVersion: 'global-2026.1',
    });
    const [stopped] = await t.db.sql`
      select data from es_events where stream_id = ${`orf-${id}`} and event_type = 'OralReadingStopped'`;
    expect(stopped!.data).toMatchObject({
      lastWordIndex: 29,
      elapsedSeconds: 45,
      errorIndices: [3, 35],
      attempted: 30,
      errors: 1,
      droppedMarks: 1,
      cut: { version: 'global-2026.1', organizationId: null },
      rateCut: 'applied',
      result: { wcpm: 38.7, accuracy: 96, band: 'on_track', rateCut: 'applied', provisional: true },
    });
    expect(await attemptRow(id)).toMatchObject({
      status: 'done',
      end_reason: 'completed',
      result: { wcpm: 38.7, accuracy: 96, accuracyBand: 'on_track', band: 'on_track' },
    });
    // After the stop: both changes 409 already_stopped.
    expect((await expectNothingWritten(() => mark(id, 1, 'error'), 409)).reason).toBe('already_stopped');
    expect((await expectNothingWritten(() => stop(id, 10, 30), 409)).reason).toBe('already_stopped');
  });

  it('refuses a word outside the passage, a last word past it, and elapsed seconds outside 1..60 (422)', async () => {
    const id = await started();
    const words = passage.word_count;
    expect(await expectNothingWritten(() => mark(id, words, 'error'), 422)).toMatchObject({
      reason: 'orf_word_out_of_range',
      details: [{ field: 'wordIndex', issue: 'orf_word_out_of_range' }],
    });
    expect(await expectNothingWritten(() => stop(id, words, 30), 422)).toMatchObject({
      reason: 'orf_last_word_out_of_range',
    });
    expect(await expectNothingWritten(() => stop(id, 5, 61), 422)).toMatchObject({
      reason: 'orf_elapsed_out_of_range',
    });
    expect(await expectNothingWritten(() => stop(id, 5, 0), 422)).toMatchObject({ reason: 'orf_elapsed_out_of_range' });
    await expectNothingWritten(() => mark(id, 1, 'wrong'), 422);
    await expectNothingWritten(() => mark(id, -1, 'error'), 422);
  });

  it('refuses another teacher (403) and another organization’s or an unknown reading (404)', async () => {
    const id = await started();
    const other = client(t.app, w.a.otherTeacherToken);
    await expectNothingWritten(() => mark(id, 1, 'error', other), 403);
    await expectNothingWritten(() => stop(id, 1, 10, other), 403);
    await expectNothingWritten(() => mark(id, 1, 'error', client(t.app, w.a.adminToken)), 403);
    const teacherB = client(t.app, w.b.teacherToken);
    await expectNothingWritten(() => mark(id, 1, 'error', teacherB), 404);
    await expectNothingWritten(() => stop(id, 1, 10, teacherB), 404);
    await expectNothingWritten(() => mark('00000000-0000-4000-8000-000000000000', 1, 'error'), 404);
  });

  it('of two parallel stops exactly one scores the reading; the other gets 409 already_stopped', async () => {
    const id = await started();
    const results = await Promise.all([stop(id, 9, 30), stop(id, 19, 50), mark(id, 2, 'error')]);
    const stops = results
      .slice(0, 2)
      .map((r) => r.statusCode)
      .sort();
    expect(stops).toEqual([200, 409]);
    const events = await t.db.sql`
      select event_type from es_events where stream_id = ${`orf-${id}`} and event_type = 'OralReadingStopped'`;
    expect(events).toHaveLength(1);
    expect([200, 409]).toContain(results[2]!.statusCode);
  });
});

describe('voided readings', () => {
  it('refuses mark and stop with 409 voided, and the next reading supersedes the void once', async () => {
    const id = await started();
    const voidId = await voidAttempt(t.db.sql, t.runtime.store, 'oral_text', id);
    expect((await expectNothingWritten(() => mark(id, 1, 'error'), 409)).reason).toBe('voided');
    expect((await expectNothingWritten(() => stop(id, 1, 10), 409)).reason).toBe('voided');
    const read = await teacher.get(`/api/orf/assessments/${id}`);
    expect(read.json()).toMatchObject({ voided: true, status: 'in_progress' });

    const next = await started();
    expect(await attemptRow(next)).toMatchObject({ supersedes_void_id: BigInt(voidId) });
    const again = await started();
    expect(await attemptRow(again)).toMatchObject({ supersedes_void_id: null });
  });
});

describe('read-cut tables: rateCut and pinning', () => {
  it('withholds the rate cut in a window, reports no_norm without a rate cut, and keeps each stop’s pinned cuts', async () => {
    const sql = t.db.sql;
    const first = await started();
    expect((await stop(first, 29, 45)).json()).toMatchObject({ rateCut: 'applied', cutVersion: 'global-2026.1' });

    await sql`
      insert into asm_read_cuts (version, organization_id, cell, grade, evidence_window, accuracy_cuts, rate_cuts,
                                 rate_withheld, provisional, published_at)
      values ('amal-1', ${w.a.id}, 'oral_text', 2, 'BOY',
              '[{"band":"developing","min":80},{"band":"on_track","min":95}]', '[{"band":"strong","min":10}]',
              true, false, now() + interval '1 second')`;
    const second = await started();
    expect((await stop(second, 29, 45)).json()).toMatchObject({
      accuracy: 100,
      accuracyBand: 'on_track',
      rateBand: null,
      band: 'on_track',
      bandBasis: 'accuracy',
      rateCut: 'withheld_in_window',
      provisional: false,
      cutVersion: 'amal-1',
    });

    await sql`
      insert into asm_read_cuts (version, organization_id, cell, grade, evidence_window, accuracy_cuts, rate_cuts,
                                 rate_withheld, provisional, published_at)
      values ('amal-2', ${w.a.id}, 'oral_text', 2, 'BOY', '[{"band":"strong","min":90}]', '[]', false, false,
              now() + interval '2 seconds')`;
    const third = await started();
    expect((await stop(third, 29, 45)).json()).toMatchObject({
      rateCut: 'no_norm',
      band: 'strong',
      cutVersion: 'amal-2',
    });

    // The first reading still reads with the cuts it pinned.
    expect((await teacher.get(`/api/orf/assessments/${first}`)).json()).toMatchObject({
      rateCut: 'applied',
      rateBand: 'strong',
      cutVersion: 'global-2026.1',
    });

    await sql`
      insert into asm_read_cuts (version, organization_id, cell, grade, evidence_window, published_at)
      values ('amal-empty', ${w.a.id}, 'oral_text', 2, 'BOY', now() + interval '3 seconds')`;
    const fourth = await started();
    expect((await stop(fourth, 29, 45)).json()).toMatchObject({
      band: null,
      accuracyBand: null,
      bandBasis: null,
      skippedReason: 'not_banded',
      rateCut: 'no_norm',
      cutVersion: 'amal-empty',
      provisional: true,
    });
    // Read again with the pinned (empty) table: the same answer.
    expect((await teacher.get(`/api/orf/assessments/${fourth}`)).json()).toMatchObject({
      skippedReason: 'not_banded',
      cutVersion: 'amal-empty',
      provisional: true,
    });
    await sql`delete from asm_read_cuts where organization_id = ${w.a.id}`;
  });
});

describe('GET /api/orf/assessments/{id}', () => {
  it('answers staff who reach the child and refuses the others', async () => {
    const id = await started();
    for (const token of [w.a.teacherToken, w.a.principalToken, w.a.managerToken, w.a.adminToken, w.superToken]) {
      const res = await client(t.app, token).get(`/api/orf/assessments/${id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id, rateCut: null, accuracyBand: null, provisional: null });
    }
    for (const token of [w.a.otherTeacherToken, w.a.parentToken, w.a.studentToken]) {
      expect((await client(t.app, token).get(`/api/orf/assessments/${id}`)).statusCode).toBe(403);
    }
    expect((await client(t.app, w.b.adminToken).get(`/api/orf/assessments/${id}`)).statusCode).toBe(404);
    expect((await teacher.get('/api/orf/assessments/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await teacher.get('/api/orf/assessments/not-a-uuid')).statusCode).toBe(422);
  });
});
