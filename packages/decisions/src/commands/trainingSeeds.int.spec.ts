import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { importDemoFiles, importDemoScreeningForms, openWindowFor } from '@qiraa/assessment/testing';
import { eventsOfType } from '@qiraa/eventstore';
import { rebuildProjection } from '@qiraa/projections';
import { beforeAll, describe, expect, it } from 'vitest';
import { decisionEvents, streams, TRAINING_LEVEL_SEED_RETRACTED, TRAINING_LEVEL_SEEDED } from '../events';
import { skillStatusReactor } from '../projections/skillStatusReactor';
import { trainingSeedsProjection } from '../projections/trainingSeedsProjection';
import { trainingLevelSeedsOf } from '../queries/trainingLevelSeedsOf';
import { recomputeSkillStatus } from './recomputeSkillStatus';

const { t, w } = useTestWorld();
const YEAR = '2026-2027';
let teacher: Client;
let wordListId: string;
let quick = 60;

beforeAll(async () => {
  const sql = t.db.sql;
  await importDemoScreeningForms(sql);
  await importDemoFiles(sql, ['word-lists.json']);
  await openWindowFor(sql, w.a.id, YEAR);
  [{ id: wordListId }] = (await sql`
    select id from content_word_lists where external_id = 'g2-fw-boy'`) as unknown as [{ id: string }];
  teacher = client(t.app, w.a.teacherToken);
}, 120_000);

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

/** The grade-2 window form through the routes (word_recognition 4, text1 3, spelling 3), missing `wrong`. */
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

/** Grade 2 BOY familiar words: 19 wcpm, a developing band. */
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

const voidIt = async (kind: string, targetId: string) => {
  const res = await teacher.post(`/api/teacher/classes/${w.a.classId}/taqyeem/void`, {
    kind,
    targetId,
    reason: 'started_by_mistake',
  });
  expect(res.statusCode, res.body).toBe(201);
};

const seedEvents = async (studentId: number) =>
  eventsOfType(
    decisionEvents(await t.runtime.store.readStream(streams.decision(studentId))),
    TRAINING_LEVEL_SEEDED,
    TRAINING_LEVEL_SEED_RETRACTED,
  );
/** The data of the student's last seed event, which must be a seed. */
const lastSeed = async (studentId: number) => {
  const last = (await seedEvents(studentId)).at(-1);
  if (last?.type !== TRAINING_LEVEL_SEEDED) throw new Error(`the last seed event is ${last?.type}`);
  return last.data;
};

const seeds = (studentId: number) => trainingLevelSeedsOf(t.db.sql, studentId);

describe('training-level seeds (TrainingLevelSeeded, trainingLevelSeedsOf)', () => {
  let s: { id: number; token: string };
  let sittingId: string;

  it('a screened student: the skill whose measure is complete and whose sub-skill is decided is seeded', async () => {
    s = await newStudent();
    expect(await seeds(s.id)).toEqual([]);
    // word_recognition 3 of 4: level 3; fw_common_words on_track (ADR-01). Text 1 and spelling are complete too,
    // but each of their sub-skills holds one or two questions: insufficient_evidence, so TLS-08 holds them.
    sittingId = await sitThrough(s, [0]);
    const found = await seeds(s.id);
    expect(found).toEqual([
      {
        skillId: 'familiar_word_reading',
        measureCode: 'word_recognition',
        level: 3,
        seedId: expect.any(String),
        window: 'BOY',
        academicYear: YEAR,
        decidedAt: expect.any(String),
        ruleSetVersion: 'v1',
        sessionId: sittingId,
        provisional: false,
      },
    ]);
    const events = await seedEvents(s.id);
    expect(events).toHaveLength(1);
    const [seeded] = events;
    expect(seeded!.eventId).toBe(found[0]!.seedId);
    if (seeded?.type !== TRAINING_LEVEL_SEEDED) throw new Error(`not a seed: ${seeded?.type}`);
    const data = seeded.data;
    expect(data).toMatchObject({
      seedId: found[0]!.seedId,
      studentId: s.id,
      organizationId: w.a.id,
      skillId: 'familiar_word_reading',
      level: 3,
      measureLevel: 3,
      source: 'screen',
      ruleId: 'TLS-01',
      ruleSetVersion: 'v1',
      supersedesSeedId: null,
    });
    // The sitting's start and end and the four word answers; the fw_common_words decision it checked.
    expect(data.evidenceEventIds).toHaveLength(6);
    const decision = (
      await t.db.sql<{ decision_id: string }[]>`
      select decision_id from dec_skill_status where student_id = ${s.id} and sub_skill_id = 'fw_common_words'`
    )[0]!;
    expect(data.statusDecisionIds).toEqual([decision.decision_id]);
  });

  it('MeasureResult.trainingLevel in the reports: { source: screen } for the seeded skill, null for the held ones', async () => {
    const detail = await teacher.get(`/api/reports/students/${s.id}/sessions/digital_sitting/${sittingId}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const levels = (ms: { measureCode: string; trainingLevel: unknown }[]) =>
      Object.fromEntries(ms.map((m) => [m.measureCode, m.trainingLevel]));
    const expected = {
      word_recognition: { source: 'screen', number: 3 },
      text1_comprehension: null,
      spelling_choice: null,
    };
    expect(levels(detail.json().measures)).toEqual(expected);
    const list = await teacher.get(`/api/reports/students/${s.id}/session-results`);
    expect(list.statusCode, list.body).toBe(200);
    expect(levels(list.json().items[0].summary.measures)).toEqual(expected);
    const report = await teacher.get(`/api/reports/students/${s.id}/sub-skill-report`);
    expect(report.statusCode, report.body).toBe(200);
    const bySubSkill = Object.fromEntries(
      (report.json().rows as { subSkillId: string; trainingLevel: number | null }[]).map((r) => [
        r.subSkillId,
        r.trainingLevel,
      ]),
    );
    expect(bySubSkill).toMatchObject({ fw_common_words: 3, lc_explicit_detail: null, sp_taa_forms: null });
  });

  it('recomputing (also in parallel) appends no seed', async () => {
    const before = (await seedEvents(s.id)).length;
    const parallel = await Promise.all(Array.from({ length: 3 }, () => recomputeSkillStatus(t.runtime, s.id)));
    expect(parallel.map((p) => p.appended)).toEqual([0, 0, 0]);
    expect(await seedEvents(s.id)).toHaveLength(before);
  });

  it('a split status retracts the seed (TLS-08); voiding the read that split it seeds again under a new id', async () => {
    const v = await newStudent();
    await sitThrough(v, []);
    const [first] = await seeds(v.id);
    expect(first).toMatchObject({ skillId: 'familiar_word_reading', level: 4 });
    // Every word right (strong) against a developing list band: split_evidence, the skill is held.
    const readId = await wordListRead(v.id);
    expect(await seeds(v.id)).toEqual([]);
    const retraction = (await seedEvents(v.id)).at(-1)!;
    expect(retraction.type).toBe(TRAINING_LEVEL_SEED_RETRACTED);
    expect(retraction.data).toMatchObject({
      retractedSeedId: first!.seedId,
      ruleId: 'TLS-08',
      reason: 'skill_held',
      skillId: 'familiar_word_reading',
    });
    const row = (await t.db.sql`
      select seed_id, level, rule_id from dec_training_seeds where student_id = ${v.id}`) as unknown as unknown[];
    expect(row).toEqual([{ seed_id: null, level: null, rule_id: 'TLS-08' }]);

    await voidIt('oral_word_list', readId);
    const [again] = await seeds(v.id);
    expect(again).toMatchObject({ skillId: 'familiar_word_reading', level: 4 });
    expect(again!.seedId).not.toBe(first!.seedId);
    expect((await lastSeed(v.id)).supersedesSeedId).toBeNull();
  });

  it('a void of the seeding sitting retracts the seed (TLS-09); the replacement sitting seeds the new level', async () => {
    const v = await newStudent();
    const first = await sitThrough(v, []);
    const [before] = await seeds(v.id);
    expect(before).toMatchObject({ level: 4, sessionId: first });
    await voidIt('digital_sitting', first);
    expect(await seeds(v.id)).toEqual([]);
    expect((await seedEvents(v.id)).at(-1)!.data).toMatchObject({
      retractedSeedId: before!.seedId,
      ruleId: 'TLS-09',
      reason: 'no_complete_measure',
    });
    // The replacement: two of four word questions right, level 2.
    const second = await sitThrough(v, [0, 1]);
    const [after] = await seeds(v.id);
    expect(after).toMatchObject({ skillId: 'familiar_word_reading', level: 2, sessionId: second });
    expect(after!.seedId).not.toBe(before!.seedId);
  });

  it('the reactor re-delivering the whole log appends no seed; a rebuild of dec_training_seeds gives the same rows', async () => {
    const count = async () =>
      (
        await t.db.sql<{ n: number }[]>`
          select count(*)::int as n from es_events
          where event_type in (${TRAINING_LEVEL_SEEDED}, ${TRAINING_LEVEL_SEED_RETRACTED})`
      )[0]!.n;
    const events = await count();
    expect(events).toBeGreaterThan(0);
    await t.db.sql`update projection_checkpoints set checkpoint = null where name = ${skillStatusReactor.name}`;
    await t.runtime.projector.catchUp(skillStatusReactor.name);
    expect(await count()).toBe(events);

    const rows = () => t.db.sql`select * from dec_training_seeds order by student_id, skill_id, evidence_window`;
    const inline = await rows();
    expect(inline.length).toBeGreaterThan(0);
    await rebuildProjection({ sql: t.db.sql, store: t.runtime.store }, trainingSeedsProjection);
    expect(await rows()).toEqual(inline);
  });
});
