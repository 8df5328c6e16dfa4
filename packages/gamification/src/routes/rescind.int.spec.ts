import { client, useTestWorld } from '@qiraa/app/testing';
import { rebuildProjection } from '@qiraa/projections';
import { describe, expect, it } from 'vitest';
import { recordMasteryEvents } from '../commands/recordMasteryEvents';
import { gamificationLedgerProjection } from '../projections/ledgerProjection';
import { replayReport } from '../replay';
import { ruleSetV1 } from '../rules';
import { OVERRIDE_CODES } from '../rules/overrideCodes';

const { t, w } = useTestWorld();
let serial = 0;

const CODE = 'Gam_Award_Invalid_05';
const engine = () => client(t.app, w.a.adminToken);
const rescindUrl = (studentBadgeId: number) => `/api/teachers/badges/${studentBadgeId}/rescind`;
const rescind = (token: string, studentBadgeId: number, body: unknown = { overrideCode: CODE }) =>
  client(t.app, token).post(rescindUrl(studentBadgeId), body);

interface Badge {
  code: string;
  studentBadgeId: number;
  status: string;
}
const profile = async (studentId: number, token = w.a.teacherToken) => {
  const res = await client(t.app, token).get(`/api/students/${studentId}/gamification/profile`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { xpBalance: number; badges: Badge[] };
};

async function ingest(studentId: number, over: Record<string, unknown> = {}) {
  const res = await engine().post('/api/gamification/mastery-events', {
    kind: 'mastery_event',
    engineEventId: `rescind-${process.pid}-${serial++}`,
    studentId,
    sourceKind: 'band_progression',
    occurredAt: '2026-11-01T08:00:00Z',
    sessionId: `rescind-session-${serial}`,
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { masteryEventId: string; xpCredited: number; badgeCode: string | null };
}

/** A fresh student of the teacher's class with one mastery event: badge first_step, 25 XP + 15 bonus. */
async function studentWithBadge(): Promise<{ studentId: number; studentBadgeId: number; masteryEventId: string }> {
  const res = await engine().post(`/api/classes/${w.a.classId}/students`, { fullNameAr: 'طالب' });
  expect(res.statusCode, res.body).toBe(201);
  const studentId: number = res.json().studentId;
  const { masteryEventId } = await ingest(studentId);
  const [badge] = (await profile(studentId)).badges;
  return { studentId, studentBadgeId: badge!.studentBadgeId, masteryEventId };
}

describe('override-code catalog', () => {
  it('has nine unique codes, one of them for gamification', () => {
    expect(OVERRIDE_CODES).toHaveLength(9);
    expect(new Set(OVERRIDE_CODES.map((c) => c.code)).size).toBe(9);
    expect(OVERRIDE_CODES.filter((c) => c.scope === 'gamification_rescind').map((c) => c.code)).toEqual([CODE]);
    for (const c of OVERRIDE_CODES) {
      expect(c.code).toMatch(/^[A-Z][a-z]+(_[A-Z][a-z]+)+_\d{2}$/);
      expect(c.labelAr).toMatch(/[\u0600-\u06FF]/);
    }
  });
});

describe('POST /api/teachers/badges/{studentBadgeId}/rescind', () => {
  it('rescinds: appends the rescind and a compensating XP transaction, and the profile shows both', async () => {
    const { studentId, studentBadgeId, masteryEventId } = await studentWithBadge();
    expect(await profile(studentId)).toMatchObject({
      xpBalance: 40,
      badges: [{ code: 'first_step', studentBadgeId, status: 'active' }],
    });

    const res = await rescind(w.a.teacherToken, studentBadgeId);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      studentBadgeId,
      status: 'rescinded',
      compensatingXpTransactionId: expect.any(Number),
      reversalDelta: -15,
    });

    const after = await profile(studentId);
    expect(after.xpBalance).toBe(25);
    expect(after.badges).toEqual([
      expect.objectContaining({ code: 'first_step', studentBadgeId, status: 'rescinded' }),
    ]);
    expect((await profile(studentId, w.a.adminToken)).badges[0]?.status).toBe('rescinded');

    expect(
      await t.db.sql`
        select kind, amount, mastery_event_id::text as m, student_badge_id::int as b from gam_xp_ledger
        where id = ${body.compensatingXpTransactionId}`,
    ).toEqual([{ kind: 'rescind_reversal', amount: -15, m: masteryEventId, b: studentBadgeId }]);
    const events = await t.runtime.store.readStream(`badgerescind-${studentId}`);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['BadgeRescinded', expect.objectContaining({ studentBadgeId, overrideCode: CODE, actorUserId: w.a.teacherId })],
    ]);
    // Nothing was deleted: the award is still there, and a rebuild from the streams gives the same profile.
    expect(await t.db.sql`select count(*)::int as n from gam_badge_awards where id = ${studentBadgeId}`).toEqual([
      { n: 1 },
    ]);
    await rebuildProjection({ sql: t.db.sql, store: t.runtime.store }, gamificationLedgerProjection);
    expect(await profile(studentId)).toEqual(after);
  });

  it('reads as rescinded on every surface: adults see status rescinded, the child and the parent no longer see it', async () => {
    const studentId = w.a.studentId;
    await ingest(studentId);
    const adults = [w.a.teacherToken, w.a.principalToken, w.a.adminToken, w.superToken];
    const own = await profile(studentId, w.a.studentToken);
    const parentBefore = await profile(studentId, w.a.parentToken);
    const badge = (await profile(studentId)).badges.find((b) => b.code === 'first_step')!;
    const nameAr = (own.badges as unknown as { nameAr: string }[])[0]!.nameAr;
    expect(own.badges).toHaveLength(1);
    expect(parentBefore.badges).toEqual([expect.objectContaining({ nameAr })]);

    expect((await rescind(w.a.teacherToken, badge.studentBadgeId)).statusCode).toBe(200);
    for (const token of adults) {
      const seen = (await profile(studentId, token)).badges.find((b) => b.studentBadgeId === badge.studentBadgeId);
      expect(seen?.status).toBe('rescinded');
    }
    // The child's entry has no status (spec), so the child is not shown the badge as if it were still theirs.
    const ownAfter = await profile(studentId, w.a.studentToken);
    expect(ownAfter.badges).toEqual([]);
    expect(ownAfter.xpBalance).toBe(own.xpBalance - 15);
    expect((await profile(studentId, w.a.parentToken)).badges).toEqual([]);
  });

  it('answers 409 already_rescinded to a second rescind and writes nothing more', async () => {
    const { studentId, studentBadgeId } = await studentWithBadge();
    expect((await rescind(w.a.teacherToken, studentBadgeId)).statusCode).toBe(200);
    const again = await rescind(w.a.teacherToken, studentBadgeId);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CONFLICT', reason: 'already_rescinded' });
    expect((await profile(studentId)).xpBalance).toBe(25);
  });

  it('lets exactly one of many parallel rescinds of one badge succeed', async () => {
    const { studentId, studentBadgeId } = await studentWithBadge();
    const results = await Promise.all(Array.from({ length: 8 }, () => rescind(w.a.teacherToken, studentBadgeId)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of results.filter((r) => r.statusCode === 409)) expect(r.json().reason).toBe('already_rescinded');
    const [rows] = await t.db.sql`
      select count(*)::int as n from gam_xp_ledger where student_id = ${studentId} and kind = 'rescind_reversal'`;
    expect(rows).toEqual({ n: 1 });
    expect(await t.runtime.store.readStream(`badgerescind-${studentId}`)).toHaveLength(1);
    expect((await profile(studentId)).xpBalance).toBe(25);
  });

  it('reverses a negative amount for a badge earned after the session cap is used up (rule set v2 pays its bonus)', async () => {
    const res = await engine().post(`/api/classes/${w.a.classId}/students`, { fullNameAr: 'طالب' });
    const studentId: number = res.json().studentId;
    const sessionId = `capped-${serial}`;
    // 40 + 15, 40 + 15, 40 + 15, 35: the session's 200 XP are used up; the badge still brings its 15.
    for (let i = 0; i < 4; i++) await ingest(studentId, { sourceKind: 'bundle_completion', sessionId });
    const capped = await ingest(studentId, { sourceKind: 'band_progression', sessionId });
    expect(capped).toMatchObject({ badgeCode: 'band_riser', xpCredited: 15 });
    const before = await profile(studentId);
    expect(before.xpBalance).toBe(215);
    const badge = before.badges.find((b) => b.code === 'band_riser')!;

    const out = await rescind(w.a.teacherToken, badge.studentBadgeId);
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toMatchObject({ status: 'rescinded', reversalDelta: -15 });
    expect(
      await t.db
        .sql`select kind, amount, rule_version from gam_xp_ledger where id = ${out.json().compensatingXpTransactionId}`,
    ).toEqual([{ kind: 'rescind_reversal', amount: -15, rule_version: 2 }]);
    const after = await profile(studentId);
    expect(after.xpBalance).toBe(200);
    expect(after.badges.find((b) => b.code === 'band_riser')?.status).toBe('rescinded');
    const report = await replayReport(
      { sql: t.db.sql, store: t.runtime.store },
      studentId,
      new Date(Date.now() + 60_000),
    );
    expect(report.hasDrift, JSON.stringify(report)).toBe(false);
  });

  it('keeps a badge rule set v1 decided after the cap at a 0 reversal, and replay agrees (v1 stays beside v2)', async () => {
    const res = await engine().post(`/api/classes/${w.a.classId}/students`, { fullNameAr: 'طالب' });
    const studentId: number = res.json().studentId;
    const sessionId = `capped-v1-${serial++}`;
    const deps = { sql: t.db.sql, store: t.runtime.store };
    const kinds = [
      'bundle_completion',
      'bundle_completion',
      'bundle_completion',
      'bundle_completion',
      'band_progression',
    ] as const;
    const results = await recordMasteryEvents(
      deps,
      kinds.map((sourceKind, i) => ({
        engineEventId: `rescind-v1-${process.pid}-${serial}-${i}`,
        studentId,
        sourceKind,
        occurredAt: '2026-11-01T08:00:00Z',
        sessionId,
      })),
      { rules: ruleSetV1 },
    );
    expect(results.at(-1)).toMatchObject({ kind: 'recorded', badgeCode: 'band_riser', xpCredited: 0 });
    const badge = (await profile(studentId)).badges.find((b) => b.code === 'band_riser')!;
    const out = await rescind(w.a.teacherToken, badge.studentBadgeId);
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toMatchObject({ status: 'rescinded', reversalDelta: 0 });
    expect((await profile(studentId)).xpBalance).toBe(200);
    const report = await replayReport(deps, studentId, new Date(Date.now() + 60_000));
    expect(report.hasDrift, JSON.stringify(report)).toBe(false);
    expect(report.derived.xpBalance).toBe(200);
  });

  it('answers 400 OVERRIDE_CODE_INVALID to a missing, empty, wrong-scope or unknown code, 400 UNKNOWN_FIELD to another key', async () => {
    const { studentId, studentBadgeId } = await studentWithBadge();
    const cases: [unknown, string, string][] = [
      [{}, 'OVERRIDE_CODE_INVALID', 'missing_override_code'],
      [{ overrideCode: '' }, 'OVERRIDE_CODE_INVALID', 'missing_override_code'],
      [{ overrideCode: 'Ses_Include_Observed_01' }, 'OVERRIDE_CODE_INVALID', 'wrong_scope'],
      [{ overrideCode: 'Trn_Alert_Resolved_08' }, 'OVERRIDE_CODE_INVALID', 'wrong_scope'],
      [{ overrideCode: 'Gam_Award_Invalid_99' }, 'OVERRIDE_CODE_INVALID', 'wrong_scope'],
    ];
    for (const [body, code, reason] of cases) {
      const res = await rescind(w.a.teacherToken, studentBadgeId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code, reason });
    }
    const extra = await rescind(w.a.teacherToken, studentBadgeId, { overrideCode: CODE, note: 'free text' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toMatchObject({ code: 'UNKNOWN_FIELD', details: [{ field: 'note' }] });
    expect((await profile(studentId)).badges[0]).toMatchObject({ status: 'active' });
    expect((await profile(studentId)).xpBalance).toBe(40);
  });

  it('is for a ClassTeacher of the student only: other teacher or persona 403, another organization or unknown 404', async () => {
    const { studentId, studentBadgeId } = await studentWithBadge();
    expect((await rescind(w.a.otherTeacherToken, studentBadgeId)).statusCode).toBe(403);
    for (const token of [w.a.adminToken, w.a.principalToken, w.a.managerToken, w.a.parentToken, w.a.studentToken]) {
      const res = await rescind(token, studentBadgeId);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('PERMISSION_DENIED');
    }
    expect((await rescind(w.superToken, studentBadgeId)).statusCode).toBe(403);
    const otherOrg = await rescind(w.b.teacherToken, studentBadgeId);
    expect(otherOrg.statusCode).toBe(404);
    expect(otherOrg.json().code).toBe('NOT_FOUND');
    expect((await rescind(w.a.teacherToken, 987_654_321)).statusCode).toBe(404);
    expect((await client(t.app).post(rescindUrl(studentBadgeId), { overrideCode: CODE })).statusCode).toBe(401);
    expect((await profile(studentId)).badges[0]).toMatchObject({ status: 'active' });
  });
});
