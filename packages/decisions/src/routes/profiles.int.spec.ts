import { client, useTestWorld } from '@qiraa/app/testing';
import { setWindows } from '@qiraa/assessment/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { recomputeSkillStatus } from '../commands/recomputeSkillStatus';
import { streams } from '../events';
import { PROFILE_RESOLVED } from '../events/profileEvents';
import {
  isDataIncomplete,
  profileOf,
  profilesOfClass,
  recommendationOf,
  recommendationsOfClass,
} from '../queries/profileOf';
import { decisionRewardsReaction } from '../reactions/decisionRewardsReaction';
import { profileNotifier } from '../reactions/profileNotifier';
import { recordOrfProbe } from '../testing/orfProbeFixture';
import { type FixtureQuestion, recordSitting } from '../testing/sittingFixture';

const { t, w } = useTestWorld();
const YEAR = '2026-2027';

beforeAll(async () => {
  await setWindows(t.db.sql, w.a.id, YEAR, 'BOY');
}, 60_000);

async function newStudent(): Promise<number> {
  const res = await client(t.app, w.superToken).post(`/api/classes/${w.a.classId}/students`, { fullNameAr: 'سلمى' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().studentId;
}
const place = (studentId: number) => ({
  organizationId: w.a.id,
  schoolId: w.a.schoolId,
  classId: w.a.classId,
  studentId,
  teacherId: w.a.teacherId,
});
const items = (subSkillId: string, measureCode: string, ...correct: boolean[]): FixtureQuestion[] =>
  correct.map((c) => ({ subSkillId, measureCode, correct: c }));

const get = async (studentId: number, what: 'profile' | 'recommendation', token = w.a.teacherToken) => {
  const res = await client(t.app, token).get(`/api/sse/students/${studentId}/${what}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
/** MER credits are the rewards reaction's: read once it has caught up. */
const domainCredits = async (studentId: number) => {
  await t.runtime.reactor.catchUp(decisionRewardsReaction.name);
  return t.db.sql<{ engine_event_id: string; skill_id: string }[]>`
    select engine_event_id::text, skill_id from gam_mastery_events
    where student_id = ${studentId} and source_kind = 'domain_status_escalation'`;
};
const sentFor = (studentId: number) =>
  t.db.sql<{ kind: string; recipient_user_id: string; payload: Record<string, string> }[]>`
    select kind, recipient_user_id::text, payload from notifications
    where kind in ('skill_alert_assigned', 'benchmark_profile_swap') and payload->>'studentId' = ${String(studentId)}
    order by created_at, kind, recipient_user_id`;
const adminIds = async () =>
  (
    await t.db.sql<{ id: string }[]>`
      select id::text from users where organization_id = ${w.a.id} and primary_persona = 'ADMIN' order by id`
  ).map((r) => Number(r.id));

describe('profiles and bundle recommendations', () => {
  it('nothing decided: profile and recommendation null (a 200)', async () => {
    const s = await newStudent();
    expect(await get(s, 'profile')).toEqual({
      studentId: s,
      academicYear: null,
      window: null,
      windows: [],
      profile: null,
    });
    expect(await get(s, 'recommendation')).toMatchObject({ recommendation: null });
    expect(await profileOf(t.db.sql, s)).toBeNull();
    expect(isDataIncomplete(null)).toBe(true);
  });

  it('an oral reading only: DATA_INCOMPLETE (PR2-00), blocked naming the next data action; a screening then decides, ' +
    'alerts the teacher once, and a rise earns domain_status_escalation once and tells the admins of the swap', async () => {
    const s = await newStudent();
    await recordOrfProbe(t.runtime, place(s), new Date(), 30); // grade 2 BOY: on_track
    await recomputeSkillStatus(t.runtime, s);
    const guard = await get(s, 'profile');
    expect(guard).toMatchObject({
      academicYear: YEAR,
      window: 'BOY',
      windows: [{ academicYear: YEAR, window: 'BOY' }],
      profile: {
        profileCode: 'PR2-00',
        profileName: 'DATA_INCOMPLETE',
        safeStop: 'DATA_INCOMPLETE',
        doNotDecideYet: true,
        code: 'DO_NOT_DECIDE_YET',
        missingDomains: ['decoding', 'comprehension'],
        domains: [{ macroDomainId: 'fluency', status: 'on_track', ruleId: 'PR1-01' }],
        ruleSetVersion: 'v1',
      },
    });
    expect(await get(s, 'recommendation')).toMatchObject({
      recommendation: {
        outcome: 'blocked_insufficient_evidence',
        code: 'DO_NOT_DECIDE_YET',
        ruleId: 'BRR-09',
        profileCode: 'PR2-00',
        bundleId: null,
        sufficientData: false,
        nextDataAction: { action: 'screening_sitting', macroDomainId: 'decoding', reason: 'missing' },
        profileDecisionId: guard.profile.profileDecisionId,
      },
    });
    expect(isDataIncomplete(await profileOf(t.db.sql, s))).toBe(true);

    // The screening: letter sounds one in three (developing), explicit detail all right (strong).
    await recordSitting(t.runtime, place(s), [
      ...items('ls_short_vowels', 'word_recognition', true, false, false),
      ...items('lc_explicit_detail', 'text1_comprehension', true, true, true),
    ]);
    await recomputeSkillStatus(t.runtime, s);
    const focus = await get(s, 'profile');
    expect(focus.profile).toMatchObject({
      profileCode: 'PR2-02',
      profileName: 'WORD_LEVEL_FOCUS',
      safeStop: null,
      code: null,
      groups: { word_level: 'support', meaning: 'secure' },
      missingDomains: [],
    });
    const rec = (await get(s, 'recommendation')).recommendation;
    expect(rec).toMatchObject({
      outcome: 'recommended',
      code: null,
      ruleId: 'BRR-01',
      bundleId: 'bnd_decoding_foundations',
      bundleLabelAr: 'أساسيات فك الرموز',
      anchorSkillGroup: 'decoding',
      anchorSkillId: 'letter_sounds',
      scaffoldTier: 'Level_2',
      sufficientData: true,
      nextDataAction: null,
    });
    expect(rec.steps.map((x: { stepCode: string }) => x.stepCode)).toEqual([
      'letter_sound_review',
      'syllable_blending',
      'decodable_words',
      'common_words',
    ]);
    expect(await recommendationOf(t.db.sql, s)).toEqual(rec);
    expect(
      (await recommendationsOfClass(t.db.sql, w.a.classId)).find((r) => r.studentId === s)?.recommendation,
    ).toEqual(rec);
    expect(
      (await profilesOfClass(t.db.sql, w.a.classId, { window: 'BOY' })).find((r) => r.studentId === s)?.profile,
    ).toEqual(focus.profile);

    await t.runtime.reactor.catchUp(profileNotifier.name);
    expect((await sentFor(s)).map((n) => [n.kind, Number(n.recipient_user_id), n.payload])).toEqual([
      [
        'skill_alert_assigned',
        w.a.teacherId,
        {
          studentId: String(s),
          classId: w.a.classId,
          studentName: 'سلمى',
          alertId: rec.recommendationId,
          skillId: 'letter_sounds',
          skillLabelAr: 'أصوات الحروف',
        },
      ],
    ]);
    expect(await domainCredits(s)).toEqual([]); // the first decided domain statuses: no step to measure

    // Letter sounds pooled to four in six (on_track): ON_TRACK, decoding rose a step within BOY.
    await recordSitting(t.runtime, place(s), items('ls_short_vowels', 'word_recognition', true, true, true));
    await recomputeSkillStatus(t.runtime, s);
    const up = await get(s, 'profile');
    expect(up.profile).toMatchObject({ profileCode: 'PR2-01', profileName: 'ON_TRACK' });
    expect((await get(s, 'recommendation')).recommendation).toMatchObject({
      bundleId: 'bnd_enrich_words',
      scaffoldTier: 'Level_3',
    });
    expect(await domainCredits(s)).toEqual([{ engine_event_id: up.profile.profileDecisionId, skill_id: 'decoding' }]);
    const resolved = (await t.runtime.store.readStream(streams.decision(s))).filter((e) => e.type === PROFILE_RESOLVED);
    expect(resolved.at(-1)?.data).toMatchObject({
      previousProfileCode: 'PR2-02',
      mastery: {
        ruleId: 'MER-04',
        sourceKind: 'domain_status_escalation',
        domains: [{ macroDomainId: 'decoding', from: 'developing', to: 'on_track' }],
      },
    });

    await t.runtime.reactor.catchUp(profileNotifier.name);
    const admins = await adminIds();
    const swaps = (await sentFor(s)).filter((n) => n.kind === 'benchmark_profile_swap');
    expect(swaps.map((n) => Number(n.recipient_user_id))).toEqual(admins);
    expect(swaps[0]?.payload).toEqual({
      studentId: String(s),
      classId: w.a.classId,
      studentName: 'سلمى',
      fromProfileCode: 'PR2-02',
      toProfileCode: 'PR2-01',
    });
    // ON_TRACK's enrichment bundle assigns the teacher nothing.
    expect((await sentFor(s)).filter((n) => n.kind === 'skill_alert_assigned')).toHaveLength(1);

    // Recomputes (in parallel), a rebuild of the notifier: nothing appended, credited or sent again.
    const before = (await t.runtime.store.readStream(streams.decision(s))).length;
    const sent = (await sentFor(s)).length;
    await Promise.all([1, 2, 3].map(() => recomputeSkillStatus(t.runtime, s)));
    expect((await t.runtime.store.readStream(streams.decision(s))).length).toBe(before);
    await t.db.sql`update reaction_checkpoints set checkpoint = null where name = ${profileNotifier.name}`;
    await t.runtime.reactor.catchUp(profileNotifier.name);
    expect(await sentFor(s)).toHaveLength(sent);
    expect(await domainCredits(s)).toHaveLength(1);
  }, 120_000);

  it('tenant rule: another organization’s student is 404, a parent or the child is 403, staff 200', async () => {
    for (const what of ['profile', 'recommendation'] as const) {
      const url = `/api/sse/students/${w.a.studentId}/${what}`;
      expect((await client(t.app, w.b.teacherToken).get(url)).statusCode).toBe(404);
      expect((await client(t.app, w.a.adminToken).get(`/api/sse/students/987654321/${what}`)).statusCode).toBe(404);
      expect((await client(t.app, w.a.parentToken).get(url)).statusCode).toBe(403);
      expect((await client(t.app, w.a.studentToken).get(url)).statusCode).toBe(403);
      for (const token of [w.a.teacherToken, w.a.adminToken, w.a.principalToken, w.a.managerToken]) {
        expect((await client(t.app, token).get(url)).statusCode).toBe(200);
      }
      expect((await client(t.app, w.a.teacherToken).get(`${url}?window=XOY`)).statusCode).toBe(422);
    }
  });
});
