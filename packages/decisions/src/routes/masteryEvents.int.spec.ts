import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { importDemoScreeningForms, setWindows } from '@qiraa/assessment/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { recomputeSkillStatus } from '../commands/recomputeSkillStatus';
import { BAND_PROGRESSION_DECIDED, SKILL_STATUS_DECIDED, streams } from '../events';
import { skillStatusReactor } from '../projections/skillStatusReactor';
import { decisionRewardsReaction } from '../reactions/decisionRewardsReaction';

const { t, w } = useTestWorld();
const YEAR = '2026-2027';
let teacher: Client;
let passageId: string;
let quick = 60;

beforeAll(async () => {
  await importDemoScreeningForms(t.db.sql);
  await setWindows(t.db.sql, w.a.id, YEAR, 'BOY');
  [{ id: passageId }] = (await t.db.sql`
    select id from content_passages where external_id = 'g2-boy-screen-text1'`) as unknown as [{ id: string }];
  teacher = client(t.app, w.a.teacherToken);
}, 120_000);

/** A fresh grade-2 student of the teacher's class. */
async function newStudent(): Promise<number> {
  const user = await client(t.app, w.superToken).post('/api/users', {
    primaryPersona: 'STUDENT',
    fullNameAr: 'سلمى',
    classId: w.a.classId,
    quickCode: String(quick++).padStart(2, '0'),
  });
  expect(user.statusCode, user.body).toBe(201);
  return user.json().id;
}

/**
 * An oral reading of the grade-2 passage through the routes, `words` read in 60 s without an error. Grade 2
 * cuts (global-2026.1): BOY developing from 15 wcpm, on_track from 25; MOY on_track from 35, strong from 49.
 */
async function oralReading(studentId: number, words: number, band: string): Promise<string> {
  const started = await teacher.post('/api/orf/assessments', { studentId, passageId });
  expect(started.statusCode, started.body).toBe(201);
  const id = started.json().id;
  const stopped = await teacher.post(`/api/orf/assessments/${id}/stop`, {
    lastWordIndex: words - 1,
    elapsedSeconds: 60,
  });
  expect(stopped.statusCode, stopped.body).toBe(200);
  expect(stopped.json().band).toBe(band);
  return id;
}

const connectedText = async (studentId: number, window: string) => {
  const res = await teacher.get(`/api/sse/students/${studentId}/skill-status?window=${window}&academicYear=${YEAR}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().rows as { subSkillId: string; [k: string]: unknown }[]).find(
    (r) => r.subSkillId === 'or_connected_text',
  );
};
/** The credits are a reaction's (decisions_rewards_reaction): what the child sees once it has caught up. */
const rewarded = () => t.runtime.reactor.catchUp(decisionRewardsReaction.name);
const masteryEvents = async (studentId: number) => {
  await rewarded();
  return t.db.sql<
    { source_kind: string; engine_event_id: string; skill_id: string | null; measure_code: string | null }[]
  >`
    select source_kind, engine_event_id, skill_id, measure_code from gam_mastery_events
    where student_id = ${studentId} order by recorded_at, source_kind`;
};
const profile = async (studentId: number) => {
  await rewarded();
  const res = await client(t.app, w.a.adminToken).get(`/api/students/${studentId}/gamification/profile`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const xpBalance = async (studentId: number) => (await profile(studentId)).xpBalance as number;
const decisionEvents = async (studentId: number) => t.runtime.store.readStream(streams.decision(studentId));
const voidRead = (targetId: string) =>
  teacher.post(`/api/teacher/classes/${w.a.classId}/taqyeem/void`, {
    kind: 'oral_text',
    targetId,
    reason: 'started_by_mistake',
  });

describe('mastery events from decisions', () => {
  let s: number;
  let moyRead: string;

  it('a higher band on a later read of the same cell earns band_progression (MER-03), the band decision its id', async () => {
    await setWindows(t.db.sql, w.a.id, YEAR, 'BOY');
    s = await newStudent();
    await oralReading(s, 20, 'developing');
    expect(await masteryEvents(s)).toEqual([]);
    expect(await connectedText(s, 'BOY')).toMatchObject({ status: 'developing', ssrRuleId: 'SSR-02' });
    expect(await xpBalance(s)).toBe(0);

    const second = await oralReading(s, 30, 'on_track');
    const bands = (await decisionEvents(s)).filter((e) => e.type === BAND_PROGRESSION_DECIDED);
    expect(bands).toHaveLength(1);
    expect(bands[0]!.data).toMatchObject({
      ruleId: 'MER-03',
      sourceKind: 'band_progression',
      cell: 'oral_text',
      readAttemptId: second,
      from: 'developing',
      to: 'on_track',
    });
    expect(await masteryEvents(s)).toEqual([
      {
        source_kind: 'band_progression',
        engine_event_id: bands[0]!.eventId,
        skill_id: 'or_connected_text',
        measure_code: 'oral_text',
      },
    ]);
    // The lower median of developing and on_track: the status holds, so no status rule fires.
    expect(await connectedText(s, 'BOY')).toMatchObject({ status: 'developing' });
    // 25 XP for the band and 15 for a badge (first_step: one badge per mastery event).
    expect(await xpBalance(s)).toBe(40);
  });

  it('screened again in MOY at a stronger status: skill_status_transition (MER-01) with the decision id, and XP', async () => {
    await setWindows(t.db.sql, w.a.id, YEAR, 'MOY');
    moyRead = await oralReading(s, 40, 'on_track');
    const moy = await connectedText(s, 'MOY');
    expect(moy).toMatchObject({ status: 'on_track', adrRuleId: 'ADR-02' });
    const decision = (await decisionEvents(s)).find((e) => e.eventId === moy!.decisionId);
    expect(decision?.data).toMatchObject({
      mastery: { ruleId: 'MER-01', sourceKind: 'skill_status_transition', from: 'developing', to: 'on_track' },
    });
    const events = await masteryEvents(s);
    expect(events.map((e) => [e.source_kind, e.engine_event_id])).toEqual([
      ['band_progression', expect.any(String)],
      ['skill_status_transition', moy!.decisionId],
    ]);
    // 20 for the transition and 15 for the badge the band had waited for (band_riser).
    expect(await xpBalance(s)).toBe(75);
    expect((await profile(s)).badges.map((b: { code: string }) => b.code).sort()).toEqual(['band_riser', 'first_step']);
  });

  it('a re-run recompute, in parallel too, and a re-delivery through the reactor credit nothing more', async () => {
    const before = { events: (await decisionEvents(s)).length, xp: await xpBalance(s) };
    expect(await recomputeSkillStatus(t.runtime, s)).toEqual({ appended: 0 });
    const parallel = await Promise.all([1, 2, 3].map(() => recomputeSkillStatus(t.runtime, s)));
    expect(parallel.map((p) => p.appended)).toEqual([0, 0, 0]);
    await t.db.sql`update projection_checkpoints set checkpoint = null where name = ${skillStatusReactor.name}`;
    await t.runtime.projector.catchUp(skillStatusReactor.name);
    expect((await decisionEvents(s)).length).toBe(before.events);
    expect(await masteryEvents(s)).toHaveLength(2);
    expect(await xpBalance(s)).toBe(before.xp);
  });

  it('a void that lowers the status takes its transition back (band_riser stays: the band still earns it)', async () => {
    const xp = await xpBalance(s);
    expect((await voidRead(moyRead)).statusCode).toBe(201);
    expect(await connectedText(s, 'MOY')).toMatchObject({ status: null, holdReason: 'not_assessed' });
    // The MOY transition (20 XP) was built on the voided read: reversed. band_riser, which it triggered, still
    // holds on the BOY band rise, so it stays with its bonus.
    expect(await xpBalance(s)).toBe(xp - 20);
    expect((await profile(s)).badges.map((b: { code: string; status: string }) => [b.code, b.status])).toEqual([
      ['first_step', 'active'],
      ['band_riser', 'active'],
    ]);
    await oralReading(s, 40, 'on_track');
    expect(await connectedText(s, 'MOY')).toMatchObject({ status: 'on_track' });
    const latest = (await decisionEvents(s)).filter((e) => e.type === SKILL_STATUS_DECIDED).at(-1);
    // MER-02 compares with the window's highest status, the reversed one included: nothing earned again.
    expect(latest?.data).toMatchObject({ status: 'on_track', mastery: null });
    expect(await masteryEvents(s)).toHaveLength(2);
    expect(await xpBalance(s)).toBe(xp - 20);
  });

  it('a safe stop earns nothing', async () => {
    await setWindows(t.db.sql, w.a.id, YEAR, 'BOY');
    const v = await newStudent();
    await oralReading(v, 20, 'developing');
    await setWindows(t.db.sql, w.a.id, YEAR, 'MOY');
    const moy = await oralReading(v, 40, 'on_track');
    expect((await voidRead(moy)).statusCode).toBe(201);
    // MOY's only read voided: the no-evidence row, do_not_decide_yet.
    expect(await connectedText(v, 'MOY')).toMatchObject({ status: null, doNotDecideYet: true });
    const statuses = (await decisionEvents(v)).filter((e) => e.type === SKILL_STATUS_DECIDED);
    const safeStop = statuses.at(-1)!.data;
    expect(safeStop).toMatchObject({ doNotDecideYet: true, mastery: null });
    // The on_track MOY read earned its transition (before the void) and its band; the safe stop added nothing.
    const kinds = (await masteryEvents(v)).map((e) => e.source_kind).sort();
    expect(kinds).toEqual(['band_progression', 'skill_status_transition']);
  });

  it('a status that rises within a window on new evidence earns subskill_state_up (MER-02)', async () => {
    await setWindows(t.db.sql, w.a.id, YEAR, 'BOY');
    const u = await newStudent();
    await oralReading(u, 20, 'developing');
    await oralReading(u, 30, 'on_track');
    // The lower median of three probes (developing, on_track, on_track) is on_track: the status rises.
    await oralReading(u, 30, 'on_track');
    const row = await connectedText(u, 'BOY');
    expect(row).toMatchObject({ status: 'on_track' });
    const decision = (await decisionEvents(u)).find((e) => e.eventId === row!.decisionId);
    expect(decision?.data).toMatchObject({
      supersedesDecisionId: expect.any(String),
      mastery: { ruleId: 'MER-02', sourceKind: 'subskill_state_up', from: 'developing', to: 'on_track' },
    });
    expect((await masteryEvents(u)).map((e) => [e.source_kind, e.engine_event_id])).toEqual([
      ['band_progression', expect.any(String)],
      ['subskill_state_up', row!.decisionId],
    ]);
  });
});
