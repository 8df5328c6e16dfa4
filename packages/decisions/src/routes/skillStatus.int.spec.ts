import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { evidenceOf } from '@qiraa/assessment';
import { importDemoFiles, importDemoScreeningForms, openWindowFor, startSitting } from '@qiraa/assessment/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { recomputeSkillStatus } from '../commands/recomputeSkillStatus';
import { decideSkillStatuses } from '../engine/decideSkillStatuses';
import { SKILL_STATUS_DECIDED, streams } from '../events';
import { skillStatusReactor } from '../projections/skillStatusReactor';
import { CURRENT_RULE_SET } from '../rules/ruleSet';

const { t, w } = useTestWorld();
const YEAR = '2026-2027';
let teacher: Client;
let passageId: string;
let wordListId: string;
let quick = 40;

interface Row {
  subSkillId: string;
  status: string | null;
  adrRuleId: string | null;
  ssrRuleId: string | null;
  doNotDecideYet: boolean;
  safeStop: string | null;
  holdReason: string | null;
  decisionId: string;
  evidence: { items: { answered: number; correct: number }; reads: unknown[]; voidedAttempts: number };
  [key: string]: unknown;
}

beforeAll(async () => {
  const sql = t.db.sql;
  await importDemoScreeningForms(sql);
  await importDemoFiles(sql, ['word-lists.json']);
  await openWindowFor(sql, w.a.id, YEAR);
  await openWindowFor(sql, w.b.id, YEAR);
  [{ id: passageId }] = (await sql`
    select id from content_passages where external_id = 'g2-boy-screen-text1'`) as unknown as [{ id: string }];
  [{ id: wordListId }] = (await sql`
    select id from content_word_lists where external_id = 'g2-fw-boy'`) as unknown as [{ id: string }];
  teacher = client(t.app, w.a.teacherToken);
}, 120_000);

/** A fresh grade-2 student of the teacher's class, logged in. */
async function newStudent(): Promise<{ id: number; token: string }> {
  const quickCode = String(quick++).padStart(2, '0');
  const user = await client(t.app, w.superToken).post('/api/users', {
    primaryPersona: 'STUDENT',
    fullNameAr: 'سلمى',
    classId: w.a.classId,
    quickCode,
  });
  expect(user.statusCode, user.body).toBe(201);
  const login = await client(t.app).post('/api/auth/student/quickcode', { classCode: w.a.classCode, quickCode });
  expect(login.statusCode).toBe(200);
  return { id: user.json().id, token: login.json().accessToken };
}

const key = async (itemId: string, correct: boolean) =>
  (
    await t.db.sql<{ k: string }[]>`
      select o->>'key' as k from content_items, jsonb_array_elements(options) o
      where id = ${itemId} and (o->>'key' = correct_option_key) = ${correct} limit 1`
  )[0]!.k;

/** A whole window sitting through the routes, missing the 0-based answers in `wrong`. */
async function sitThrough(s: { token: string }, wrong: readonly number[]): Promise<string> {
  const started = await client(t.app, s.token).post('/api/diagnostic-sessions/start');
  expect(started.statusCode, started.body).toBe(200);
  const id = started.json().sittingId as string;
  let itemId: string | null = started.json().firstItemId;
  for (let n = 0; itemId; n++) {
    const res = await client(t.app, s.token).post(`/api/diagnostic-sessions/${id}/answers`, {
      itemId,
      answer: await key(itemId, !wrong.includes(n)),
    });
    expect(res.statusCode, res.body).toBe(200);
    itemId = res.json().item?.id ?? null;
  }
  return id;
}

/** Grade 2 BOY familiar words: 20 words in 60 s with one error: 19 wcpm (developing), 95 % (strong). */
async function wordListRead(studentId: number): Promise<string> {
  const res = await teacher.post('/api/word-lists/assessments', {
    studentId,
    wordListId,
    errorIndices: [3],
    last_word_index: 19,
    elapsed_seconds: 60,
  });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().band).toBe('developing');
  return res.json().id;
}

/** Grade 2 BOY passage: 30 words in 60 s, none wrong: 30 wcpm (on_track), 100 % (strong). */
async function oralReading(studentId: number): Promise<string> {
  const started = await teacher.post('/api/orf/assessments', { studentId, passageId });
  expect(started.statusCode, started.body).toBe(201);
  const id = started.json().id;
  const stopped = await teacher.post(`/api/orf/assessments/${id}/stop`, { lastWordIndex: 29, elapsedSeconds: 60 });
  expect(stopped.statusCode, stopped.body).toBe(200);
  expect(stopped.json().band).toBe('on_track');
  return id;
}

const skillStatus = async (studentId: number, as: Client = teacher, query = '') => {
  const res = await as.get(`/api/sse/students/${studentId}/skill-status${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { window: string | null; academicYear: string | null; windows: unknown[]; rows: Row[] };
};
const bySubSkill = (rows: Row[]) => Object.fromEntries(rows.map((r) => [r.subSkillId, r]));
const decisionEvents = async (studentId: number) =>
  (await t.runtime.store.readStream(streams.decision(studentId))).filter((e) => e.type === SKILL_STATUS_DECIDED);
const readModel = (studentId: number) =>
  t.db.sql`select * from dec_skill_status where student_id = ${studentId} order by sub_skill_id`;
const voidIt = (kind: string, targetId: string) =>
  teacher.post(`/api/teacher/classes/${w.a.classId}/taqyeem/void`, { kind, targetId, reason: 'started_by_mistake' });

describe('GET /api/sse/students/{id}/skill-status', () => {
  let s: { id: number; token: string };
  let readId: string;

  it('decides from real evidence: a sitting, an oral reading and a word-list read, read back right after', async () => {
    s = await newStudent();
    const before = await skillStatus(s.id);
    expect(before).toEqual({ studentId: s.id, academicYear: null, window: null, windows: [], rows: [] });

    // Grade 2 form: word_recognition (fw_common_words) 4, text1 3, spelling 3; miss the first word question.
    await sitThrough(s, [0]);
    await oralReading(s.id);
    readId = await wordListRead(s.id);

    const body = await skillStatus(s.id);
    expect(body).toMatchObject({ academicYear: YEAR, window: 'BOY', windows: [{ academicYear: YEAR, window: 'BOY' }] });
    const rows = bySubSkill(body.rows);
    // Digital 3/4 = 75 % on_track and the list's developing band are one step apart: the lower one (SSR-03).
    expect(rows.fw_common_words).toMatchObject({
      status: 'developing',
      adrRuleId: 'ADR-03',
      ssrRuleId: 'SSR-03',
      doNotDecideYet: false,
      safeStop: null,
      code: null,
      ruleSetVersion: 'v1',
      subSkillLabelAr: 'الكلمات الشائعة',
      skillId: 'familiar_word_reading',
    });
    expect(rows.fw_common_words!.evidence).toMatchObject({
      items: { answered: 4, correct: 3, percent: 75, token: 'on_track' },
      oralToken: 'developing',
      reads: [{ attemptId: readId, cell: 'oral_familiar_words', wcpm: 19, accuracy: 95, band: 'developing' }],
      measures: [{ measureCode: 'word_recognition', raw: 3, max: 4, level: 3, complete: true }],
    });
    expect(rows.or_connected_text).toMatchObject({ status: 'on_track', adrRuleId: 'ADR-02', ssrRuleId: 'SSR-02' });
    // One to two questions of a sub-skill are too few: the safe stop, answered with 200.
    for (const id of ['lc_explicit_detail', 'lc_event_order', 'sp_taa_forms', 'sp_sun_moon_lam']) {
      expect(rows[id]).toMatchObject({
        status: null,
        adrRuleId: 'ADR-09',
        ssrRuleId: null,
        doNotDecideYet: true,
        safeStop: 'do_not_decide_yet',
        code: 'DO_NOT_DECIDE_YET',
        holdReason: 'insufficient_evidence',
      });
    }
    expect(body.rows).toHaveLength(6);
    const events = await decisionEvents(s.id);
    expect(events.find((e) => e.eventId === rows.fw_common_words!.decisionId)?.data).toMatchObject({
      ruleSetVersion: 'v1',
      adrRuleId: 'ADR-03',
      evidenceEventIds: expect.arrayContaining([expect.any(String)]),
    });
  });

  it('recomputing unchanged evidence appends nothing', async () => {
    const before = (await t.runtime.store.readStream(streams.decision(s.id))).length;
    expect(before).toBeGreaterThan(0);
    expect(await recomputeSkillStatus(t.runtime, s.id)).toEqual({ appended: 0 });
    // Parallel recomputes of one student: still nothing, and no error.
    const parallel = await Promise.all(Array.from({ length: 4 }, () => recomputeSkillStatus(t.runtime, s.id)));
    expect(parallel.map((p) => p.appended)).toEqual([0, 0, 0, 0]);
    expect((await t.runtime.store.readStream(streams.decision(s.id))).length).toBe(before);
  });

  it('a void appends a decision that supersedes the old one', async () => {
    const old = bySubSkill((await skillStatus(s.id)).rows).fw_common_words!;
    const res = await voidIt('oral_word_list', readId);
    expect(res.statusCode, res.body).toBe(201);
    const now = bySubSkill((await skillStatus(s.id)).rows).fw_common_words!;
    expect(now).toMatchObject({ status: 'on_track', adrRuleId: 'ADR-01', ssrRuleId: 'SSR-01' });
    expect(now.evidence).toMatchObject({ reads: [], voidedAttempts: 1 });
    expect(now.decisionId).not.toBe(old.decisionId);
    const latest = (await decisionEvents(s.id)).find((e) => e.eventId === now.decisionId);
    expect(latest?.data).toMatchObject({ supersedesDecisionId: old.decisionId });
  });

  it('voiding every attempt of the window leaves the no-evidence row: both rule ids null, not assessed', async () => {
    const v = await newStudent();
    const sitting = await sitThrough(v, []);
    const orf = await oralReading(v.id);
    const list = await wordListRead(v.id);
    // All four word questions right (strong) against the list's developing band: two steps apart, split.
    expect(bySubSkill((await skillStatus(v.id)).rows).fw_common_words).toMatchObject({
      status: null,
      adrRuleId: 'ADR-03',
      ssrRuleId: 'SSR-04',
      doNotDecideYet: true,
      safeStop: 'do_not_decide_yet',
      code: 'DO_NOT_DECIDE_YET',
      holdReason: 'split_evidence',
    });
    for (const [kind, id] of [
      ['digital_sitting', sitting],
      ['oral_text', orf],
      ['oral_word_list', list],
    ] as const) {
      expect((await voidIt(kind, id)).statusCode).toBe(201);
    }
    const body = await skillStatus(v.id);
    expect(body.rows).toHaveLength(6);
    for (const row of body.rows) {
      expect(row).toMatchObject({
        status: null,
        adrRuleId: null,
        ssrRuleId: null,
        doNotDecideYet: true,
        safeStop: 'do_not_decide_yet',
        code: 'DO_NOT_DECIDE_YET',
        holdReason: 'not_assessed',
      });
      expect(row.evidence.items.answered).toBe(0);
    }
    const evidence = await evidenceOf(t.db.sql, v.id);
    expect(evidence.allVoidedWindows).toEqual([{ academicYear: YEAR, window: 'BOY' }]);
    expect(evidence.voided).toHaveLength(3);
  });

  it('parallel evidence requests for one student race their recomputes to one consistent read model', async () => {
    const p = await newStudent();
    await Promise.all([wordListRead(p.id), wordListRead(p.id), oralReading(p.id), wordListRead(p.id)]);
    const rows = bySubSkill((await skillStatus(p.id)).rows);
    expect(rows.fw_common_words).toMatchObject({ status: 'developing', adrRuleId: 'ADR-02', ssrRuleId: 'SSR-02' });
    expect(rows.fw_common_words!.evidence.reads).toHaveLength(3);
    expect(rows.or_connected_text).toMatchObject({ status: 'on_track', adrRuleId: 'ADR-02' });
    // The stored rows are the decisions of the final evidence: recomputing now appends nothing.
    expect(await recomputeSkillStatus(t.runtime, p.id)).toEqual({ appended: 0 });
  });

  it('evidenceOf: per question the pinned sub-skill and measure with the answer event ids; reads with their events', async () => {
    const e = await evidenceOf(t.db.sql, s.id);
    expect(e.sittings).toHaveLength(1);
    const [sitting] = e.sittings;
    expect(sitting!.questions).toHaveLength(10);
    expect(sitting!.questions.filter((q) => q.subSkillId === 'fw_common_words').map((q) => q.correct)).toEqual([
      false,
      true,
      true,
      true,
    ]);
    expect(sitting!.questions.every((q) => q.eventId !== null)).toBe(true);
    expect(sitting!.measures.map((m) => [m.measureCode, m.raw, m.max, m.complete])).toEqual([
      ['word_recognition', 3, 4, true],
      ['text1_comprehension', 3, 3, true],
      ['spelling_choice', 3, 3, true],
    ]);
    // The word-list read was voided: out of the reads, listed among the voided.
    expect(e.reads.map((r) => [r.cell, r.band, r.wcpm])).toEqual([['oral_text', 'on_track', 30]]);
    expect(e.reads[0]!.eventIds).toHaveLength(2);
    expect(e.voided.map((v) => v.attemptId)).toEqual([readId]);
    expect(e.allVoidedWindows).toEqual([]);
    expect((await evidenceOf(t.db.sql, s.id, { window: 'MOY' })).sittings).toEqual([]);
  });

  it('the reactor (projection runner) decides evidence no request recomputed, and re-delivery appends nothing', async () => {
    // Evidence appended by a command outside any request: no inline recompute.
    const r = await newStudent();
    const fixture = await startSitting(t.runtime, {
      organizationId: w.a.id,
      schoolId: w.a.schoolId,
      classId: w.a.classId,
      studentId: r.id,
    });
    for (const position of [0, 1, 2]) await fixture.answer(position);
    await fixture.complete();
    expect(await readModel(r.id)).toEqual([]);

    const inlineRows = await readModel(s.id);
    const inlineLength = (await t.runtime.store.readStream(streams.decision(s.id))).length;
    await t.runtime.projector.catchUp(skillStatusReactor.name);
    const [row] = (await readModel(r.id)) as unknown as { sub_skill_id: string; status: string; adr_rule_id: string }[];
    expect(row).toMatchObject({ sub_skill_id: 'fixture_sub_skill', status: 'strong', adr_rule_id: 'ADR-01' });
    // The students the requests already recomputed: the reactor finds nothing to add, the rows stay the same.
    expect((await t.runtime.store.readStream(streams.decision(s.id))).length).toBe(inlineLength);
    expect(await readModel(s.id)).toEqual(inlineRows);
    // The stored decision equals the pure engine on the student's evidence.
    const [decided] = decideSkillStatuses(await evidenceOf(t.db.sql, r.id), CURRENT_RULE_SET);
    const [event] = await decisionEvents(r.id);
    expect(event?.data).toMatchObject({ ...decided });

    // Re-delivery: the whole log again from the start.
    const total = async () =>
      (
        await t.db.sql<
          { n: number }[]
        >`select count(*)::int as n from es_events where event_type = ${SKILL_STATUS_DECIDED}`
      )[0]!.n;
    const count = await total();
    await t.db.sql`update projection_checkpoints set checkpoint = null where name = ${skillStatusReactor.name}`;
    await t.runtime.projector.catchUp(skillStatusReactor.name);
    expect(await total()).toBe(count);
  });

  it('answers another organization’s or an unknown student 404, and 403 to a parent, the child or another teacher', async () => {
    const get = (token: string, id: number) => client(t.app, token).get(`/api/sse/students/${id}/skill-status`);
    expect((await get(w.b.teacherToken, s.id)).statusCode).toBe(404);
    expect((await get(w.b.adminToken, s.id)).statusCode).toBe(404);
    expect((await get(w.a.teacherToken, 99_999_999)).statusCode).toBe(404);
    expect((await get(w.a.parentToken, w.a.studentId)).statusCode).toBe(403);
    expect((await get(s.token, s.id)).statusCode).toBe(403);
    expect((await get(w.a.otherTeacherToken, s.id)).statusCode).toBe(403);
    for (const token of [w.a.adminToken, w.a.principalToken, w.superToken]) {
      expect((await get(token, s.id)).statusCode).toBe(200);
    }
    const bad = await teacher.get(`/api/sse/students/${s.id}/skill-status?window=XOY`);
    expect(bad.statusCode).toBe(422);
    const moy = await skillStatus(s.id, teacher, '?window=MOY');
    expect(moy).toMatchObject({ window: 'MOY', rows: [] });
  });
});
