import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { importDemoScreeningForms, setWindows } from '@qiraa/assessment/testing';
import { decisionRewardsReaction, recomputeSkillStatus, skillStatusReactor } from '@qiraa/decisions';
import { gamificationProfile } from '@qiraa/gamification';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './testing/runCli';
import { runCliInProcess } from './testing/runCliInProcess';

/** Issue 22, "Voids and rescinds reach the rewards": what a voided read earned goes back, once. */
const { t, w } = useTestWorld();
const YEAR = '2026-2027';
let teacher: Client;
let admin: Client;
let passageId: string;

beforeAll(async () => {
  await importDemoScreeningForms(t.db.sql);
  await setWindows(t.db.sql, w.a.id, YEAR, 'BOY');
  [{ id: passageId }] = (await t.db.sql`
    select id from content_passages where external_id = 'g2-boy-screen-text1'`) as unknown as [{ id: string }];
  teacher = client(t.app, w.a.teacherToken);
  admin = client(t.app, w.a.adminToken);
}, 120_000);

async function newStudent(): Promise<number> {
  const res = await client(t.app, w.superToken).post(`/api/classes/${w.a.classId}/students`, { fullNameAr: 'سلمى' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().studentId as number;
}

/** An oral reading of the grade-2 passage: `words` in 60 s (BOY developing from 15 wcpm, on_track from 25). */
async function oralReading(studentId: number, words: number): Promise<string> {
  const started = await teacher.post('/api/orf/assessments', { studentId, passageId });
  expect(started.statusCode, started.body).toBe(201);
  const id = started.json().id as string;
  const stopped = await teacher.post(`/api/orf/assessments/${id}/stop`, {
    lastWordIndex: words - 1,
    elapsedSeconds: 60,
  });
  expect(stopped.statusCode, stopped.body).toBe(200);
  return id;
}

/** What the child earned and lost is the rewards reaction's work: every read below waits for it first. */
const rewarded = () => t.runtime.reactor.catchUp(decisionRewardsReaction.name);
const profile = async (studentId: number) => {
  await rewarded();
  const res = await admin.get(`/api/students/${studentId}/gamification/profile`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const audit = async (studentId: number) => {
  await rewarded();
  const res = await admin.get(`/api/admin/gamification/audit?studentId=${studentId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const boardEntry = async (studentId: number) => {
  await rewarded();
  const res = await teacher.get(`/api/leaderboards/class/${w.a.classId}?view=by_band_progression&windowDays=90`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().entries as { studentId: number; bandProgressionCount: number }[]).find(
    (e) => e.studentId === studentId,
  );
};

describe('a void reverses what the voided read earned', () => {
  let s: number;
  let higher: string;

  it('a higher read earns band_progression and first_step (40 XP)', async () => {
    s = await newStudent();
    await oralReading(s, 20);
    higher = await oralReading(s, 30);
    expect(await profile(s)).toMatchObject({ xpBalance: 40, badges: [{ code: 'first_step', status: 'active' }] });
    expect(await boardEntry(s)).toMatchObject({ bandProgressionCount: 1 });
  });

  it('voiding that read appends compensating entries caused by the void, and the boards forget the rise', async () => {
    const voided = await teacher.post(`/api/teacher/classes/${w.a.classId}/taqyeem/void`, {
      kind: 'oral_text',
      targetId: higher,
      reason: 'started_by_mistake',
    });
    expect(voided.statusCode, voided.body).toBe(201);
    const [{ event_id: voidEventId }] = (await t.db.sql`
      select event_id from es_events where event_type = 'AttemptVoided' and data->>'attemptId' = ${higher}`) as unknown as [
      { event_id: string },
    ];

    const p = await profile(s);
    expect(p).toMatchObject({ xpBalance: 0, avatarTier: 1, badges: [{ code: 'first_step', status: 'rescinded' }] });
    // The child is not shown a rescinded badge (the spec gives the student-self entry no status).
    expect((await gamificationProfile(t.db.sql, s, true)).badges).toEqual([]);
    expect(await boardEntry(s)).toMatchObject({ bandProgressionCount: 0, masteryEventCount: 0 });

    const a = await audit(s);
    const reversal = a.masteryEvents.find((e: { type: string }) => e.type === 'MasteryEventReversed');
    expect(reversal).toMatchObject({ data: { reason: 'evidence_voided' }, metadata: { causationId: voidEventId } });
    const xp = a.xpTransactions.filter((e: { type: string }) => e.type === 'XpReversed');
    expect(xp).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ kind: 'void_reversal', amount: -40, reason: 'evidence_voided' }),
        metadata: expect.objectContaining({ causationId: voidEventId }),
      }),
    ]);
    expect(a.badgeRescinds).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ reason: 'evidence_voided', overrideCode: null }),
        metadata: expect.objectContaining({ causationId: voidEventId }),
      }),
    ]);
  });

  it('a repeated recompute and a re-delivered void through the reactor reverse nothing twice', async () => {
    await recomputeSkillStatus(t.runtime, s);
    await Promise.all([1, 2, 3].map(() => recomputeSkillStatus(t.runtime, s)));
    await t.db.sql`update projection_checkpoints set checkpoint = null where name = ${skillStatusReactor.name}`;
    await t.runtime.projector.catchUp(skillStatusReactor.name);
    // The rewards reaction sees every decision and the void again (at-least-once delivery).
    await t.db.sql`update reaction_checkpoints set checkpoint = null where name = ${decisionRewardsReaction.name}`;
    const a = await audit(s);
    expect(a.masteryEvents.filter((e: { type: string }) => e.type === 'MasteryEventReversed')).toHaveLength(1);
    expect(a.xpTransactions.filter((e: { type: string }) => e.type === 'XpReversed')).toHaveLength(1);
    expect((await profile(s)).xpBalance).toBe(0);
  });

  it('a rebuilt ledger agrees, and both replays exit 0 without drift', async () => {
    const replay = await admin.post('/api/admin/gamification/replay', { studentId: s, asOf: new Date().toISOString() });
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json()).toMatchObject({ hasDrift: false, derived: { xpBalance: 0, badgeCodes: [], avatarTier: 1 } });
    const env = { DATABASE_URL: t.db.url };
    const gam = await runCli(['gamification', 'replay', '--all'], env);
    expect(gam.code, gam.stdout + gam.stderr).toBe(0);
    const dec = await runCliInProcess(['decisions', 'replay', '--all'], env);
    expect(dec.code, dec.stdout + dec.stderr).toBe(0);
    const rebuilt = await runCliInProcess(['projections', 'rebuild', 'gamification_ledger'], env);
    expect(rebuilt.code, rebuilt.stdout + rebuilt.stderr).toBe(0);
    expect(await profile(s)).toMatchObject({ xpBalance: 0, badges: [{ code: 'first_step', status: 'rescinded' }] });
    expect(await boardEntry(s)).toMatchObject({ bandProgressionCount: 0 });
  }, 240_000);
});
