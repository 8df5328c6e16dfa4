import { client, useTestWorld } from '@qiraa/app/testing';
import { catchUp, rebuildProjection } from '@qiraa/projections';
import { beforeAll, describe, expect, it } from 'vitest';
import { gamificationLedgerProjection } from '../projections/ledgerProjection';

const { t, w } = useTestWorld();
let serial = 0;

const engine = () => client(t.app, w.a.adminToken);
const mastery = (over: Record<string, unknown> = {}) => ({
  kind: 'mastery_event',
  engineEventId: `eng-${process.pid}-${serial++}`,
  studentId: w.a.studentId,
  sourceKind: 'band_progression',
  occurredAt: '2026-11-01T08:00:00Z',
  sessionId: 'session-1',
  ...over,
});
const profile = (token: string, studentId = w.a.studentId) =>
  client(t.app, token).get(`/api/students/${studentId}/gamification/profile`);

async function newStudent(): Promise<number> {
  const res = await client(t.app, w.a.adminToken).post(`/api/classes/${w.a.classId}/students`, { fullNameAr: 'طالب' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().studentId;
}

describe('mastery-event ingest', () => {
  it('records an event with what it earns, and stores a re-sent event once', async () => {
    const studentId = await newStudent();
    const event = mastery({ studentId });
    const first = await engine().post('/api/gamification/mastery-events', event);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ outcome: 'recorded', written: true, xpCredited: 40, badgeCode: 'first_step' });
    const again = await engine().post('/api/gamification/mastery-events', event);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ outcome: 'duplicate', masteryEventId: first.json().masteryEventId, written: false });
    const rows = await t.db.sql`select count(*)::int as n from gam_mastery_events where student_id = ${studentId}`;
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('stores one copy when the same event arrives in parallel', async () => {
    const studentId = await newStudent();
    const event = mastery({ studentId });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => engine().post('/api/gamification/mastery-events', event)),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    const [xp] = await t.db.sql`select count(*)::int as n from gam_xp_ledger where student_id = ${studentId}`;
    expect(xp).toEqual({ n: 2 });
  });

  it('writes nothing for a halt signal and says so', async () => {
    const studentId = await newStudent();
    for (const signal of ['do_not_decide_yet', 'partial_domain_profile']) {
      const res = await engine().post('/api/gamification/mastery-events', {
        kind: 'halt',
        engineEventId: `halt-${serial++}`,
        studentId,
        signal,
      });
      expect(res.json()).toEqual({ outcome: 'halted', masteryEventId: null, written: false, signal });
    }
    const [events] = await t.db.sql`select count(*)::int as n from es_events where stream_id like ${`%-${studentId}`}`;
    expect(events).toEqual({ n: 0 });
  });

  it('accepts exactly the eight source kinds', async () => {
    const res = await engine().post('/api/gamification/mastery-events', mastery({ sourceKind: 'engagement_minutes' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toContainEqual(expect.objectContaining({ field: 'sourceKind' }));
  });

  it('answers 404 for a student of another organization, 403 without RUN_BACKOFFICE', async () => {
    expect(
      (await engine().post('/api/gamification/mastery-events', mastery({ studentId: w.b.studentId }))).statusCode,
    ).toBe(404);
    const teacher = client(t.app, w.a.teacherToken);
    expect((await teacher.post('/api/gamification/mastery-events', mastery())).statusCode).toBe(403);
  });

  it('refuses, in the event store itself, an XP or badge event without its mastery event', async () => {
    await expect(
      t.runtime.store.append('xp-999999', [{ type: 'XpCredited', data: { xpTransactionId: 1, amount: 5 } }]),
    ).rejects.toThrow(/es_events_xp_has_mastery_event/);
    await expect(
      t.runtime.store.append('badgeaward-999999', [{ type: 'BadgeAwarded', data: { code: 'first_step' } }]),
    ).rejects.toThrow(/es_events_badge_has_mastery_event/);
  });
});

describe('gamification profile', () => {
  let studentId: number;
  beforeAll(async () => {
    studentId = w.a.studentId;
    const days = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05', '2026-11-08'];
    for (const [i, day] of days.entries()) {
      const res = await engine().post(
        '/api/gamification/mastery-events',
        mastery({
          studentId,
          schoolDay: day,
          sessionId: `profile-${i}`,
          sourceKind: i % 2 ? 'subskill_state_up' : 'band_progression',
        }),
      );
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  it('derives XP from the ledger and shows tier, streak and badges with ids for adults', async () => {
    const res = await profile(w.a.teacherToken, studentId);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const [ledger] = await t.db.sql`select sum(amount)::int as xp from gam_xp_ledger where student_id = ${studentId}`;
    expect(body.xpBalance).toBe(ledger!.xp);
    expect(body.avatarTier).toBe(2);
    expect(body.streak).toEqual({ current: 6, longest: 6, lastTickDate: '2026-11-08' });
    expect(body.badges[0]).toMatchObject({ code: 'first_step', nameAr: 'الخطوة الأولى', status: 'active' });
    expect(body.badges[0].studentBadgeId).toEqual(expect.any(Number));
  });

  it('never shows studentBadgeId or status to the student themself', async () => {
    const res = await profile(w.a.studentToken, studentId);
    expect(res.statusCode).toBe(200);
    for (const badge of res.json().badges) {
      expect(badge).not.toHaveProperty('studentBadgeId');
      expect(badge).not.toHaveProperty('status');
    }
  });

  it('is reachable by the linked parent and the principal; not by a manager, another teacher or another org', async () => {
    expect((await profile(w.a.parentToken)).statusCode).toBe(200);
    expect((await profile(w.a.principalToken)).statusCode).toBe(200);
    expect((await profile(w.a.managerToken)).statusCode).toBe(403);
    expect((await profile(w.a.otherTeacherToken)).statusCode).toBe(403);
    expect((await profile(w.b.teacherToken)).statusCode).toBe(404);
  });

  it('is the same after a rebuild of the ledger read models from the streams', async () => {
    const before = (await profile(w.a.adminToken, studentId)).json();
    await catchUp({ sql: t.db.sql, store: t.runtime.store }, gamificationLedgerProjection);
    await rebuildProjection({ sql: t.db.sql, store: t.runtime.store }, gamificationLedgerProjection);
    expect((await profile(w.a.adminToken, studentId)).json()).toEqual(before);
    await expect(t.db.sql`update gam_xp_ledger set amount = 0`).rejects.toThrow(/append-only/);
  });
});
