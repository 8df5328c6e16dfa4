import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { importDemoFiles, setWindows, voidAttempt, writeCounts } from '../testing/oralTestKit';

const { t, w } = useTestWorld();
const YEAR = '2026-2027';
let teacher: Client;
let admin: Client;
/** The demo pack's global lists by external id. */
const demo: Record<string, { id: string; words: string[] }> = {};
/** Organization A's own grade-2 lists: an untimed all-window list and a MOY list. */
let untimedList: string;
let moyList: string;
let orgBList: string;
let draftList: string;

async function createList(as: Client, body: Record<string, unknown>) {
  const res = await as.post('/api/admin/word-lists', {
    grade: 2,
    skillId: 'familiar_word_reading',
    words: demo['g2-fw-boy']!.words.slice(0, 15),
    ...body,
  });
  if (res.statusCode !== 201) throw new Error(`create list: ${res.statusCode} ${res.body}`);
  return res.json().id as string;
}

beforeAll(async () => {
  const sql = t.db.sql;
  await importDemoFiles(sql, ['word-lists.json']);
  for (const row of await sql<{ id: string; external_id: string; words: string[] }[]>`
    select id, external_id, words from content_word_lists where organization_id is null`) {
    demo[row.external_id] = { id: row.id, words: row.words };
  }
  await setWindows(sql, w.a.id, YEAR, 'BOY');
  await setWindows(sql, w.b.id, YEAR, 'BOY');
  teacher = client(t.app, w.a.teacherToken);
  admin = client(t.app, w.a.adminToken);
  untimedList = await createList(admin, { externalId: 'amal-untimed', window: null, timing: { timed: false } });
  moyList = await createList(admin, { externalId: 'amal-moy', window: 'MOY' });
  draftList = await createList(admin, { externalId: 'amal-draft', window: 'BOY', publish: false });
  orgBList = await createList(client(t.app, w.b.adminToken), { externalId: 'noor-boy', window: 'BOY' });
}, 120_000);

const read = (body: Record<string, unknown>, as: Client = teacher) =>
  as.post('/api/word-lists/assessments', { studentId: w.a.studentId, ...body });

async function expectNothingWritten(request: () => Promise<{ statusCode: number; body: string }>, status: number) {
  const before = await writeCounts(t.db.sql);
  const res = await request();
  expect(res.statusCode, res.body).toBe(status);
  expect(await writeCounts(t.db.sql)).toEqual(before);
  return JSON.parse(res.body);
}

describe('GET /api/word-lists', () => {
  it('shows a teacher the operational lists of the organization and the global ones, with timing, wordsPerRow and window', async () => {
    const res = await teacher.get('/api/word-lists');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const ids = body.lists.map((l: { id: string }) => l.id);
    expect(ids).toEqual(expect.arrayContaining([...Object.values(demo).map((d) => d.id), untimedList, moyList]));
    expect(ids).not.toContain(orgBList);
    expect(ids).not.toContain(draftList);
    expect(body.lists.find((l: { id: string }) => l.id === demo['g2-fw-boy']!.id)).toMatchObject({
      grade: 2,
      skillId: 'familiar_word_reading',
      cell: 'oral_familiar_words',
      timing: { timed: true, durationSeconds: 60 },
      wordsPerRow: 5,
      assessmentWindow: 'BOY',
      wordCount: 25,
    });
    expect(body.lists.find((l: { id: string }) => l.id === untimedList)).toMatchObject({
      timing: { timed: false, durationSeconds: null },
      wordsPerRow: 5,
      assessmentWindow: null,
    });
  });

  it('restricts to the child’s grade and window: window lists first, then all-window lists', async () => {
    const res = await teacher.get(`/api/word-lists?studentId=${w.a.studentId}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ studentId: w.a.studentId, grade: 2, window: 'BOY', windowOpen: true });
    expect(body.lists.map((l: { id: string }) => l.id)).toEqual([
      demo['g2-fw-boy']!.id,
      demo['g2-pw-boy']!.id,
      untimedList,
    ]);
    expect(body.lists.map((l: { cell: string }) => l.cell)).toEqual([
      'oral_familiar_words',
      'oral_pseudowords',
      'oral_familiar_words',
    ]);
  });

  it('answers 404 for another organization’s or an unknown child, 403 for a child not reached or a parent', async () => {
    expect((await teacher.get(`/api/word-lists?studentId=${w.b.studentId}`)).statusCode).toBe(404);
    expect((await teacher.get('/api/word-lists?studentId=999999')).statusCode).toBe(404);
    const other = client(t.app, w.a.otherTeacherToken);
    expect((await other.get(`/api/word-lists?studentId=${w.a.studentId}`)).statusCode).toBe(403);
    expect((await client(t.app, w.a.parentToken).get('/api/word-lists')).statusCode).toBe(403);
    expect((await client(t.app, w.a.studentToken).get('/api/word-lists')).statusCode).toBe(403);
    expect((await client(t.app, w.a.principalToken).get(`/api/word-lists?studentId=${w.a.studentId}`)).statusCode).toBe(
      200,
    );
  });
});

describe('POST /api/word-lists/assessments', () => {
  it('records a timed read: attempted = last + 1, marks past it dropped, WCPM over the seconds, bands', async () => {
    const before = await writeCounts(t.db.sql);
    const res = await read({
      wordListId: demo['g2-fw-boy']!.id,
      errorIndices: [1, 4, 22],
      last_word_index: 19,
      elapsed_seconds: 40,
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    // 20 attempted, 2 errors (22 is past the last word), 18 correct in 40 s: 27 wcpm, 90 %.
    // Global provisional cuts, grade 2 familiar words BOY: accuracy on_track (85), rate on_track (20).
    expect(body).toMatchObject({
      studentId: w.a.studentId,
      wordListId: demo['g2-fw-boy']!.id,
      wordListVersion: 1,
      cell: 'oral_familiar_words',
      grade: 2,
      window: 'BOY',
      timed: true,
      attempted: 20,
      errors: 2,
      correct: 18,
      droppedMarks: 1,
      lastWordIndex: 19,
      elapsedSeconds: 40,
      wcpm: 27,
      accuracy: 90,
      accuracyBand: 'on_track',
      rateBand: 'on_track',
      band: 'on_track',
      bandBasis: 'lower_of',
      skippedReason: null,
      rateCut: 'applied',
      provisional: true,
      cutVersion: 'global-2026.1',
    });
    const after = await writeCounts(t.db.sql);
    expect(after).toEqual({
      streams: before.streams + 1,
      events: before.events + 1,
      attempts: before.attempts + 1,
      uses: before.uses + 1,
    });
    const [event] = await t.db
      .sql`select stream_id, event_type, data from es_events where stream_id = ${`wlread-${body.id}`}`;
    expect(event).toMatchObject({
      event_type: 'WordListRead',
      data: {
        attemptId: body.id,
        kind: 'oral_word_list',
        cell: 'oral_familiar_words',
        organizationId: w.a.id,
        classId: w.a.classId,
        studentId: w.a.studentId,
        window: 'BOY',
        startedBy: w.a.teacherId,
        supersedesVoidId: null,
        lastWordIndex: 19,
        elapsedSeconds: 40,
        errorIndices: [1, 4, 22],
        attempted: 20,
        errors: 2,
        cut: { version: 'global-2026.1', organizationId: null },
        result: { wcpm: 27, accuracy: 90, band: 'on_track', rateBand: 'on_track', accuracyBand: 'on_track' },
      },
    });
    const [row] = await t.db.sql`select status, cell, result from asm_attempts where attempt_id = ${body.id}`;
    expect(row).toMatchObject({ status: 'done', cell: 'oral_familiar_words', result: { band: 'on_track' } });
    const adminView = await client(t.app, w.superToken).get(`/api/admin/word-lists/${demo['g2-fw-boy']!.id}`);
    expect(adminView.json()).toMatchObject({ assessmentsCount: 1 });
  });

  it('fills the pseudoword cell from a pseudoword list', async () => {
    const res = await read({ wordListId: demo['g2-pw-boy']!.id, last_word_index: 9, elapsed_seconds: 60 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ cell: 'oral_pseudowords', attempted: 10, errors: 0, wcpm: 10 });
  });

  it('reads every word of an untimed list, bands on accuracy alone, and refuses timing on it', async () => {
    const res = await read({ wordListId: untimedList, errorIndices: [0] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      timed: false,
      attempted: 15,
      errors: 1,
      wcpm: null,
      lastWordIndex: null,
      elapsedSeconds: null,
      accuracy: 93,
      accuracyBand: 'on_track',
      rateBand: null,
      bandBasis: 'accuracy',
      rateCut: 'no_norm',
    });
    for (const timing of [{ last_word_index: 3 }, { elapsed_seconds: 30 }]) {
      const body = await expectNothingWritten(() => read({ wordListId: untimedList, ...timing }), 422);
      expect(body.reason).toBe('word_list_not_timed');
    }
  });

  it.each([
    [{ elapsed_seconds: 30 }, 'word_list_timing_required', 'last_word_index'],
    [{ last_word_index: 5 }, 'word_list_timing_required', 'elapsed_seconds'],
    [{ last_word_index: 25, elapsed_seconds: 30 }, 'word_list_last_word_out_of_range', 'last_word_index'],
    [{ last_word_index: -1, elapsed_seconds: 30 }, 'word_list_last_word_out_of_range', 'last_word_index'],
    [{ last_word_index: 5, elapsed_seconds: 61 }, 'word_list_elapsed_exceeds_duration', 'elapsed_seconds'],
    [{ last_word_index: 5, elapsed_seconds: 0 }, 'word_list_elapsed_exceeds_duration', 'elapsed_seconds'],
  ])('refuses a timed read with %o: 422 %s, writing nothing', async (timing, reason, field) => {
    const body = await expectNothingWritten(() => read({ wordListId: demo['g2-fw-boy']!.id, ...timing }), 422);
    expect(body).toMatchObject({ reason, details: [{ field, issue: reason }] });
  });

  it('refuses a list of another grade or another window (422), and reads between windows (409)', async () => {
    const timing = { last_word_index: 5, elapsed_seconds: 30 };
    expect((await expectNothingWritten(() => read({ wordListId: demo['g1-fw-boy']!.id, ...timing }), 422)).reason).toBe(
      'word_list_grade_mismatch',
    );
    expect((await expectNothingWritten(() => read({ wordListId: moyList, ...timing }), 422)).reason).toBe(
      'word_list_window_mismatch',
    );
    await setWindows(t.db.sql, w.a.id, YEAR, null);
    try {
      expect(
        (await expectNothingWritten(() => read({ wordListId: demo['g2-fw-boy']!.id, ...timing }), 409)).reason,
      ).toBe('no_open_window');
    } finally {
      await setWindows(t.db.sql, w.a.id, YEAR, 'BOY');
    }
  });

  it('answers 404 for another organization’s child or list, an unknown or draft list; 403 for others', async () => {
    const timing = { last_word_index: 5, elapsed_seconds: 30 };
    const list = demo['g2-fw-boy']!.id;
    await expectNothingWritten(() => read({ studentId: w.b.studentId, wordListId: list, ...timing }), 404);
    await expectNothingWritten(() => read({ studentId: 999_999, wordListId: list, ...timing }), 404);
    for (const token of [w.a.teacherToken, w.a.otherTeacherToken, w.a.adminToken]) {
      // Another organization's list is 404 before the caller's reach is looked at.
      await expectNothingWritten(() => read({ wordListId: orgBList, ...timing }, client(t.app, token)), 404);
    }
    await expectNothingWritten(() => read({ wordListId: 'wl_AAAAAAAAAAAAAA', ...timing }), 404);
    await expectNothingWritten(() => read({ wordListId: draftList, ...timing }), 404);
    for (const token of [
      w.a.otherTeacherToken,
      w.a.adminToken,
      w.a.principalToken,
      w.a.parentToken,
      w.a.studentToken,
    ]) {
      await expectNothingWritten(() => read({ wordListId: list, ...timing }, client(t.app, token)), 403);
    }
    await expectNothingWritten(() => read({ wordListId: list, ...timing, comment: 'x' }), 400);
  });

  it('stores a read without a band when the cut table is empty (skippedReason not_banded)', async () => {
    await t.db.sql`
      insert into asm_read_cuts (version, organization_id, cell, grade, evidence_window, provisional)
      values ('amal-empty', ${w.a.id}, 'oral_pseudowords', 2, 'BOY', false)`;
    try {
      const res = await read({ wordListId: demo['g2-pw-boy']!.id, last_word_index: 9, elapsed_seconds: 60 });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        band: null,
        accuracyBand: null,
        rateBand: null,
        bandBasis: null,
        skippedReason: 'not_banded',
        cutVersion: 'amal-empty',
        provisional: false,
      });
    } finally {
      await t.db.sql`delete from asm_read_cuts where organization_id = ${w.a.id}`;
    }
  });

  it('links the next read of the cell to the latest void not yet superseded', async () => {
    const body = { wordListId: demo['g2-fw-boy']!.id, last_word_index: 9, elapsed_seconds: 30 };
    const first = (await read(body)).json().id as string;
    const voidId = await voidAttempt(t.db.sql, t.runtime.store, 'oral_word_list', first);
    // Another cell's read does not take the void.
    const pseudo = (await read({ ...body, wordListId: demo['g2-pw-boy']!.id })).json().id as string;
    const next = (await read(body)).json().id as string;
    const again = (await read(body)).json().id as string;
    const rows = await t.db.sql<{ attempt_id: string; supersedes_void_id: bigint | null }[]>`
      select attempt_id, supersedes_void_id from asm_attempts where attempt_id in ${t.db.sql([pseudo, next, again])}`;
    const of = (id: string) => rows.find((r) => r.attempt_id === id)!.supersedes_void_id;
    expect(of(pseudo)).toBeNull();
    expect(of(next)).toBe(BigInt(voidId));
    expect(of(again)).toBeNull();
  });
});
