import { randomUUID } from 'node:crypto';
import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import {
  startSitting as fixtureSitting,
  importDemoFiles,
  importDemoScreeningForms,
  openWindowFor,
} from '@qiraa/assessment/testing';
import { beforeAll, describe, expect, it } from 'vitest';

const { t, w } = useTestWorld();
const YEAR = '2026-2027';

let teacher: Client;
const results = (studentId: number, query = '', as: Client = teacher) =>
  as.get(`/api/reports/students/${studentId}/session-results${query}`);
const detail = (studentId: number, kind: string, sessionId: string, as: Client = teacher) =>
  as.get(`/api/reports/students/${studentId}/sessions/${kind}/${sessionId}`);

/** The evidence of organization A's student, recorded through the assessment routes in this order. */
const made = {} as {
  sitting: string;
  wrongKeys: Map<number, string>;
  oral: Record<string, unknown> & { id: string };
  wordList: Record<string, unknown> & { id: string };
  reDiagnostic: string;
  voidedList: string;
  voidId: string;
  orgBSitting: string;
};

const correctKey = async (itemId: string) =>
  (await t.db.sql<{ k: string }[]>`select correct_option_key as k from content_items where id = ${itemId}`)[0]!.k;
const wrongKey = async (itemId: string) =>
  (
    await t.db.sql<{ k: string }[]>`
      select o->>'key' as k from content_items, jsonb_array_elements(options) o
      where id = ${itemId} and o->>'key' <> correct_option_key limit 1`
  )[0]!.k;

/** Answers the sitting's questions from `first` on (wrong at the 0-based positions `wrong`), `count` of them. */
async function answer(token: string, id: string, first: string, wrong: readonly number[], count = Infinity) {
  const as = client(t.app, token);
  const wrongKeys = new Map<number, string>();
  let itemId: string | null = first;
  for (let n = 0; itemId && n < count; n++) {
    const key = wrong.includes(n) ? await wrongKey(itemId) : await correctKey(itemId);
    if (wrong.includes(n)) wrongKeys.set(n + 1, key);
    const res = await as.post(`/api/diagnostic-sessions/${id}/answers`, { itemId, answer: key });
    expect(res.statusCode, res.body).toBe(200);
    itemId = res.json().item?.id ?? null;
  }
  return wrongKeys;
}

async function startDiagnostic(token: string, path = '/api/diagnostic-sessions/start') {
  const res = await client(t.app, token).post(path, {});
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { sittingId: string; firstItemId: string };
}

beforeAll(async () => {
  const sql = t.db.sql;
  await importDemoScreeningForms(sql);
  await importDemoFiles(sql, ['word-lists.json']);
  await openWindowFor(sql, w.a.id, YEAR);
  await openWindowFor(sql, w.b.id, YEAR);
  teacher = client(t.app, w.a.teacherToken);
  const list = async (externalId: string) =>
    (await sql<{ id: string }[]>`select id from content_word_lists where external_id = ${externalId}`)[0]!.id;
  const [passage] = await sql<{ id: string }[]>`
    select id from content_passages where external_id = 'g2-boy-screen-text1'`;

  // 1. The window's digital sitting, finished with three wrong answers.
  const sitting = await startDiagnostic(w.a.studentToken);
  made.sitting = sitting.sittingId;
  made.wrongKeys = await answer(w.a.studentToken, sitting.sittingId, sitting.firstItemId, [0, 8, 9]);

  // 2. An oral reading: two errors, a self-correction, a mark past the last word; stopped at word 29 after 45 s.
  const started = await teacher.post('/api/orf/assessments', { studentId: w.a.studentId, passageId: passage!.id });
  expect(started.statusCode, started.body).toBe(201);
  const orf = started.json().id as string;
  for (const [wordIndex, mark] of [
    [3, 'error'],
    [7, 'error'],
    [9, 'self_correction'],
    [35, 'error'],
  ] as const) {
    expect((await teacher.post(`/api/orf/assessments/${orf}/mark`, { wordIndex, mark })).statusCode).toBe(200);
  }
  const stopped = await teacher.post(`/api/orf/assessments/${orf}/stop`, { lastWordIndex: 29, elapsedSeconds: 45 });
  expect(stopped.statusCode, stopped.body).toBe(200);
  made.oral = stopped.json();

  // 3. A timed familiar-word list read.
  const read = await teacher.post('/api/word-lists/assessments', {
    studentId: w.a.studentId,
    wordListId: await list('g2-fw-boy'),
    errorIndices: [1, 4, 22],
    last_word_index: 19,
    elapsed_seconds: 40,
  });
  expect(read.statusCode, read.body).toBe(201);
  made.wordList = read.json();

  // 4. A re-diagnostic, left open after two answers.
  const re = await startDiagnostic(w.a.studentToken, '/api/diagnostic-sessions/start/re-diagnostic');
  made.reDiagnostic = re.sittingId;
  await answer(w.a.studentToken, re.sittingId, re.firstItemId, [1], 2);

  // 5. A pseudoword list read, voided by the teacher.
  const mistaken = await teacher.post('/api/word-lists/assessments', {
    studentId: w.a.studentId,
    wordListId: await list('g2-pw-boy'),
    last_word_index: 9,
    elapsed_seconds: 60,
  });
  expect(mistaken.statusCode, mistaken.body).toBe(201);
  made.voidedList = mistaken.json().id;
  const voided = await teacher.post(`/api/teacher/classes/${w.a.classId}/taqyeem/void`, {
    kind: 'oral_word_list',
    targetId: made.voidedList,
    reason: 'started_by_mistake',
  });
  expect(voided.statusCode, voided.body).toBe(201);
  made.voidId = voided.json().id;

  made.orgBSitting = (await startDiagnostic(w.b.studentToken)).sittingId;
}, 120_000);

type Row = { sessionId: string; [key: string]: unknown };

describe('GET /api/reports/students/{id}/session-results', () => {
  it('lists every kind of session newest first with its short result, voided ones left out', async () => {
    const res = await results(w.a.studentId);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.studentId).toBe(w.a.studentId);
    expect(body.nextCursor).toBeNull();
    expect(body.items.map((r: Row) => r.sessionId)).toEqual([
      made.reDiagnostic,
      made.wordList.id,
      made.oral.id,
      made.sitting,
    ]);
    const [re, list, oral, sitting] = body.items;
    const common = { studentId: w.a.studentId, academicYear: YEAR, window: 'BOY', grade: 2, classId: w.a.classId };
    expect(sitting).toMatchObject({
      ...common,
      kind: 'digital_sitting',
      cell: 'digital',
      mode: 'window',
      status: 'done',
      endReason: 'completed',
      voided: null,
      summary: { read: null, composite: null },
    });
    // word_recognition 3 of 4, text1 3 of 3, spelling 1 of 3 (the sitting spec's numbers).
    expect(
      sitting.summary.measures.map((m: { measureCode: string; raw: number; max: number; complete: boolean }) => [
        m.measureCode,
        m.raw,
        m.max,
        m.complete,
      ]),
    ).toEqual([
      ['word_recognition', 3, 4, true],
      ['text1_comprehension', 3, 3, true],
      ['spelling_choice', 1, 3, true],
    ]);
    const stored = await t.db.sql<{ result: { measures: { level: number }[] } }[]>`
      select result from asm_attempts where attempt_id = ${made.sitting}`;
    expect(sitting.summary.measures.map((m: { level: number }) => m.level)).toEqual(
      stored[0]!.result.measures.map((m) => m.level),
    );
    expect(re).toMatchObject({ kind: 'digital_sitting', mode: 're_diagnostic', status: 'in_progress', endedAt: null });
    expect(re.summary.measures[0]).toMatchObject({ raw: 1, complete: false, incompleteReason: 'not_finished' });
    expect(oral).toMatchObject({
      ...common,
      kind: 'oral_text',
      cell: 'oral_text',
      mode: null,
      status: 'done',
      summary: {
        measures: null,
        composite: null,
        read: {
          wcpm: made.oral.wcpm,
          accuracy: made.oral.accuracy,
          band: made.oral.band,
          rateCut: made.oral.rateCut,
          provisional: made.oral.provisional,
        },
      },
    });
    expect(oral.summary.read.wcpm).toBe(37.3); // 28 correct of 30 in 45 s
    expect(list).toMatchObject({
      ...common,
      kind: 'oral_word_list',
      cell: 'oral_familiar_words',
      status: 'done',
      summary: { read: { wcpm: 27, accuracy: 90, band: made.wordList.band, rateCut: made.wordList.rateCut } },
    });
  });

  it('offers voided sessions marked with their void on includeVoided=true', async () => {
    const res = await results(w.a.studentId, '?includeVoided=true');
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as Row[];
    expect(items.map((r) => r.sessionId)).toEqual([
      made.voidedList,
      made.reDiagnostic,
      made.wordList.id,
      made.oral.id,
      made.sitting,
    ]);
    expect(items[0]).toMatchObject({
      kind: 'oral_word_list',
      cell: 'oral_pseudowords',
      voided: { id: made.voidId, reason: 'started_by_mistake', at: expect.any(String) },
    });
    expect(items.slice(1).every((r) => r.voided === null)).toBe(true);
    expect((await results(w.a.studentId, '?includeVoided=false')).json().items).toHaveLength(4);
  });

  it('filters by academic year, window and kind', async () => {
    const ids = async (query: string) =>
      (await results(w.a.studentId, query)).json().items.map((r: Row) => r.sessionId);
    expect(await ids(`?academicYear=${YEAR}&window=BOY`)).toHaveLength(4);
    expect(await ids('?academicYear=2025-2026')).toEqual([]);
    expect(await ids('?window=MOY')).toEqual([]);
    expect(await ids('?kind=oral_word_list')).toEqual([made.wordList.id]);
    expect(await ids('?kind=digital_sitting')).toEqual([made.reDiagnostic, made.sitting]);
    for (const bad of ['?academicYear=2026', '?window=SUMMER', '?kind=training_day', '?limit=0', '?limit=101']) {
      const res = await results(w.a.studentId, bad);
      expect(res.statusCode, bad).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, bad).toBeLessThan(500);
      expect(res.json().code, bad).toBe('VALIDATION_ERROR');
    }
  });

  it('pages with a cursor, ties on the start broken by id, and refuses a cursor not its own', async () => {
    const root = client(t.app, w.superToken);
    const user = await root.post('/api/users', { primaryPersona: 'STUDENT', fullNameAr: 'ليلى', classId: w.a.classId });
    expect(user.statusCode, user.body).toBe(201);
    const studentId = user.json().id as number;
    const place = { organizationId: w.a.id, schoolId: w.a.schoolId, classId: w.a.classId, studentId };
    const deps = { sql: t.runtime.sql, store: t.runtime.store };
    // Five sittings, three of them starting at the very same instant.
    const same = '2026-09-10T08:00:00.123456Z';
    const [first, last] = ['2026-09-09T08:00:00Z', '2026-09-11T08:00:00Z'];
    const starts = [first, same, same, same, last];
    for (const startedAt of starts) await fixtureSitting(deps, { ...place, startedAt });

    const all = (await results(studentId, '?limit=100')).json().items as Row[];
    expect(all).toHaveLength(5);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await results(studentId, query);
      expect(page.statusCode, page.body).toBe(200);
      seen.push(...page.json().items.map((r: Row) => r.sessionId));
      cursor = page.json().nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(all.map((r) => r.sessionId));
    expect(all.map((r) => r.at)).toEqual([last, same, same, same, first].map((s) => new Date(s).toISOString()));

    for (const bad of ['nope', Buffer.from('{"s":"1.5","i":"x"}').toString('base64url'), 'e30']) {
      const res = await results(studentId, `?cursor=${bad}`);
      expect(res.statusCode, bad).toBe(422);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'invalid_cursor' });
    }
  });
});

describe('GET /api/reports/students/{id}/sessions/{kind}/{sessionId}', () => {
  it('details a digital sitting: measures, composite and the item review, never question text or the key', async () => {
    const res = await detail(w.a.studentId, 'digital_sitting', made.sitting);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      studentId: w.a.studentId,
      sessionId: made.sitting,
      kind: 'digital_sitting',
      mode: 'window',
      status: 'done',
      voided: null,
      oralReading: null,
      wordListRead: null,
      trainingGroups: null,
    });
    expect(body.measures.map((m: { measureCode: string; raw: number }) => [m.measureCode, m.raw])).toEqual([
      ['word_recognition', 3],
      ['text1_comprehension', 3],
      ['spelling_choice', 1],
    ]);
    expect(body.measures[0]).toMatchObject({
      labelAr: expect.any(String),
      max: 4,
      complete: true,
      provisional: expect.any(Boolean),
      sessionId: made.sitting,
      cutVersion: 'global-2026.1',
    });
    // The seeded skill's training level (TLS-01); the held skills have none.
    expect(body.measures.map((m: { trainingLevel: unknown }) => m.trainingLevel)).toEqual([
      { source: 'screen', number: 3 },
      null,
      null,
    ]);
    const list = (await results(w.a.studentId)).json().items.find((r: Row) => r.sessionId === made.sitting);
    expect(list.summary.measures.map((m: { level: number }) => m.level)).toEqual(
      body.measures.map((m: { level: number }) => m.level),
    );
    expect(list.summary.measures.map((m: { trainingLevel: unknown }) => m.trainingLevel)).toEqual(
      body.measures.map((m: { trainingLevel: unknown }) => m.trainingLevel),
    );
    expect(body.itemReview).toHaveLength(10);
    expect(body.itemReview.map((r: { position: number }) => r.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(
      body.itemReview.filter((r: { correct: boolean }) => !r.correct).map((r: { position: number }) => r.position),
    ).toEqual([1, 9, 10]);
    for (const [position, key] of made.wrongKeys) expect(body.itemReview[position - 1].answer).toBe(key);
    for (const r of body.itemReview) {
      expect(Object.keys(r).sort()).toEqual(['answer', 'correct', 'measureCode', 'pattern', 'position', 'skill']);
    }
    expect(res.body).not.toMatch(/stemAr|textAr|correctOption|correct_option|options/);
  });

  it('details an open re-diagnostic as incomplete', async () => {
    const res = await detail(w.a.studentId, 'digital_sitting', made.reDiagnostic);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ mode: 're_diagnostic', status: 'in_progress', endedAt: null });
    expect(res.json().itemReview.filter((r: { answer: string | null }) => r.answer !== null)).toHaveLength(2);
  });

  it('details an oral reading: its marks, their summary and its scores', async () => {
    const res = await detail(w.a.studentId, 'oral_text', made.oral.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      kind: 'oral_text',
      mode: null,
      measures: null,
      itemReview: null,
      trainingGroups: null,
    });
    const o = made.oral;
    expect(body.oralReading).toEqual({
      passageId: o.passageId,
      passageVersion: o.passageVersion,
      wordCount: o.wordCount,
      durationSeconds: 60,
      marks: [
        { wordIndex: 3, mark: 'error' },
        { wordIndex: 7, mark: 'error' },
        { wordIndex: 9, mark: 'self_correction' },
        { wordIndex: 35, mark: 'error' },
      ],
      markSummary: { errors: 2, selfCorrections: 1, dropped: 1 },
      lastWordIndex: 29,
      elapsedSeconds: 45,
      attempted: 30,
      errors: 2,
      correct: 28,
      wcpm: o.wcpm,
      accuracy: o.accuracy,
      accuracyBand: o.accuracyBand,
      rateBand: o.rateBand,
      band: o.band,
      bandBasis: o.bandBasis,
      skippedReason: o.skippedReason,
      rateCut: o.rateCut,
      provisional: o.provisional,
      cutVersion: o.cutVersion,
    });
    expect(res.body).not.toContain('"words"');
  });

  it('details a word-list read with the scores it was recorded with', async () => {
    const res = await detail(w.a.studentId, 'oral_word_list', made.wordList.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ kind: 'oral_word_list', cell: 'oral_familiar_words', oralReading: null });
    const l = made.wordList;
    expect(body.wordListRead).toEqual({
      wordListId: l.wordListId,
      wordListVersion: l.wordListVersion,
      wordCount: 25,
      timed: true,
      errorIndices: [1, 4, 22],
      lastWordIndex: 19,
      elapsedSeconds: 40,
      attempted: 20,
      errors: 2,
      correct: 18,
      droppedMarks: 1,
      wcpm: 27,
      accuracy: 90,
      accuracyBand: l.accuracyBand,
      rateBand: l.rateBand,
      band: l.band,
      bandBasis: l.bandBasis,
      skippedReason: l.skippedReason,
      rateCut: l.rateCut,
      provisional: l.provisional,
      cutVersion: l.cutVersion,
    });
  });

  it('still reads a voided session, marked with its void', async () => {
    const res = await detail(w.a.studentId, 'oral_word_list', made.voidedList);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      voided: { id: made.voidId, reason: 'started_by_mistake' },
      wordListRead: { attempted: 10, errors: 0 },
    });
  });

  it('answers 404 unless the session is this student’s and of this kind', async () => {
    const other = await client(t.app, w.superToken).post('/api/users', {
      primaryPersona: 'STUDENT',
      fullNameAr: 'هدى',
      classId: w.a.classId,
    });
    const otherId = other.json().id as number;
    const cases: [number, string, string][] = [
      [w.a.studentId, 'oral_text', made.sitting],
      [w.a.studentId, 'oral_word_list', made.oral.id],
      [w.a.studentId, 'digital_sitting', made.wordList.id],
      [otherId, 'digital_sitting', made.sitting],
      [w.a.studentId, 'digital_sitting', made.orgBSitting],
      [w.a.studentId, 'digital_sitting', randomUUID()],
    ];
    for (const [studentId, kind, sessionId] of cases) {
      const res = await detail(studentId, kind, sessionId, client(t.app, w.a.adminToken));
      expect(res.statusCode, `${studentId} ${kind} ${sessionId}`).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    const upper = await detail(w.a.studentId, 'oral_text', made.oral.id.toUpperCase());
    expect(upper.statusCode, upper.body).toBe(200);
    // training_day is a kind of the detail now: a sitting's id is no training day of the child.
    const notADay = await detail(w.a.studentId, 'training_day', made.sitting);
    expect(notADay.statusCode, notADay.body).toBe(404);
    for (const [kind, sessionId] of [
      ['practice_day', made.sitting],
      ['digital_sitting', 'not-a-uuid'],
    ]) {
      const res = await detail(w.a.studentId, kind!, sessionId!);
      expect(res.statusCode, `${kind} ${sessionId}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('reach', () => {
  const both = (studentId: number, token: string) => [
    results(studentId, '', client(t.app, token)),
    detail(studentId, 'digital_sitting', made.sitting, client(t.app, token)),
    client(t.app, token).get(`/api/reports/students/${studentId}/sub-skill-report`),
  ];

  it('lets staff who reach the child read the reports', async () => {
    for (const token of [w.a.teacherToken, w.a.principalToken, w.a.adminToken, w.a.managerToken, w.superToken]) {
      for (const res of await Promise.all(both(w.a.studentId, token))) expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('refuses the parent, the child and staff without reach 403; another organization or a missing child 404', async () => {
    for (const token of [w.a.parentToken, w.a.studentToken, w.a.otherTeacherToken]) {
      for (const res of await Promise.all(both(w.a.studentId, token))) {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().code).toBe('PERMISSION_DENIED');
      }
    }
    for (const token of [w.b.adminToken, w.b.teacherToken, w.b.parentToken, w.b.studentToken]) {
      for (const res of await Promise.all(both(w.a.studentId, token))) expect(res.statusCode, res.body).toBe(404);
    }
    for (const token of [w.a.adminToken, w.a.parentToken, w.superToken]) {
      for (const res of await Promise.all(both(999_999, token))) expect(res.statusCode, res.body).toBe(404);
    }
    // The session is part of the tenant check: not the child's (another organization's here) is 404 before 403.
    for (const token of [w.a.otherTeacherToken, w.a.parentToken, w.a.studentToken]) {
      const res = await detail(w.a.studentId, 'digital_sitting', made.orgBSitting, client(t.app, token));
      expect(res.statusCode, res.body).toBe(404);
    }
    // A user id that is not a student (the teacher) is no student: 404.
    for (const res of await Promise.all(both(w.a.teacherId, w.a.adminToken))) expect(res.statusCode).toBe(404);
  });
});

describe('GET /api/reports/students/{id}/sub-skill-report', () => {
  const report = (studentId: number, query = '', as: Client = teacher) =>
    as.get(`/api/reports/students/${studentId}/sub-skill-report${query}`);
  type SubSkillRow = {
    subSkillId: string;
    status: string | null;
    sessions: { kind: string; sessionId: string }[];
    [key: string]: unknown;
  };

  it('per sub-skill the status, rules, safe stop, evidence and the sessions the decision rests on', async () => {
    const res = await report(w.a.studentId);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { academicYear: string; window: string; rows: SubSkillRow[] };
    expect(body).toMatchObject({ studentId: w.a.studentId, academicYear: YEAR, window: 'BOY' });
    const rows = Object.fromEntries(body.rows.map((r) => [r.subSkillId, r]));
    // The skill-status rows of the same window, one for one, plus the sessions and the training level.
    const status = (await teacher.get(`/api/sse/students/${w.a.studentId}/skill-status`)).json();
    expect(body.rows.map((r) => r.subSkillId)).toEqual(status.rows.map((r: { subSkillId: string }) => r.subSkillId));
    for (const [i, row] of body.rows.entries()) {
      const { sessions, trainingLevel, ...rest } = row;
      expect(rest).toEqual(status.rows[i]);
      // The skill's screen seed (TLS-01): word recognition 3 of 4 seeds familiar words at 3; the other
      // skills' sub-skills are held (one or two questions each), so they have none.
      expect(trainingLevel).toBe(row.skillId === 'familiar_word_reading' ? 3 : null);
    }
    // Familiar words: the window sitting's word questions and the familiar-word list read (the open
    // re-diagnostic is not evidence yet).
    expect(rows.fw_common_words!.sessions).toEqual([
      { kind: 'digital_sitting', sessionId: made.sitting },
      { kind: 'oral_word_list', sessionId: made.wordList.id },
    ]);
    expect(rows.fw_common_words).toMatchObject({ adrRuleId: 'ADR-03', doNotDecideYet: expect.any(Boolean) });
    expect(rows.or_connected_text!.sessions).toEqual([{ kind: 'oral_text', sessionId: made.oral.id }]);
    // The voided pseudoword read covered its sub-skill alone: the no-evidence row, no session.
    expect(rows.pw_closed_syllables).toMatchObject({
      status: null,
      adrRuleId: null,
      ssrRuleId: null,
      doNotDecideYet: true,
      safeStop: 'do_not_decide_yet',
      code: 'DO_NOT_DECIDE_YET',
      holdReason: 'not_assessed',
      sessions: [],
    });
    // A sub-skill with too few questions: the safe stop with ADR-09, resting on the sitting alone.
    const held = body.rows.find((r) => r.holdReason === 'insufficient_evidence');
    expect(held).toMatchObject({
      adrRuleId: 'ADR-09',
      status: null,
      safeStop: 'do_not_decide_yet',
      code: 'DO_NOT_DECIDE_YET',
    });
    // Every session named opens with the detail route.
    for (const s of new Set(body.rows.flatMap((r) => r.sessions.map((x) => `${x.kind}/${x.sessionId}`)))) {
      const [kind, id] = s.split('/') as [string, string];
      expect((await detail(w.a.studentId, kind, id)).statusCode).toBe(200);
    }
  });

  it('another window: empty; a bad window 422', async () => {
    expect((await report(w.a.studentId, '?window=EOY')).json()).toMatchObject({ window: 'EOY', rows: [] });
    expect((await report(w.a.studentId, '?window=XOY')).statusCode).toBe(422);
  });
});
