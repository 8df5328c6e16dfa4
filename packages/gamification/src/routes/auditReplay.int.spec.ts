import { randomUUID } from 'node:crypto';
import { client, useTestWorld } from '@qiraa/app/testing';
import { rebuildProjection } from '@qiraa/projections';
import { beforeAll, describe, expect, it } from 'vitest';
import { gamificationLedgerProjection } from '../projections/ledgerProjection';

const { t, w } = useTestWorld();
let serial = 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const engine = () => client(t.app, w.a.adminToken);
const AUDIT = '/api/admin/gamification/audit';
const REPLAY = '/api/admin/gamification/replay';

async function newStudent(): Promise<number> {
  const res = await engine().post(`/api/classes/${w.a.classId}/students`, { fullNameAr: 'طالب' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().studentId;
}

async function ingest(studentId: number, sourceKind: string, schoolDay: string) {
  const res = await engine().post('/api/gamification/mastery-events', {
    kind: 'mastery_event',
    engineEventId: `audit-${process.pid}-${serial++}`,
    studentId,
    sourceKind,
    schoolDay,
    occurredAt: `${schoolDay}T08:00:00Z`,
    sessionId: `audit-session-${serial}`,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { masteryEventId: string; badgeCode: string | null };
}

const profile = async (studentId: number) =>
  (await client(t.app, w.a.adminToken).get(`/api/students/${studentId}/gamification/profile`)).json();
const replay = (studentId: number, asOf = new Date().toISOString(), token = w.a.adminToken) =>
  client(t.app, token).post(REPLAY, { studentId, asOf });

/** One student with three mastery events (the first two before `mid`, the third after) and a rescind. */
let studentId: number;
let mid: string;
let eventIds: string[];
let rescinded: { studentBadgeId: number; compensatingXpTransactionId: number };

beforeAll(async () => {
  studentId = await newStudent();
  eventIds = [];
  eventIds.push((await ingest(studentId, 'band_progression', '2026-11-01')).masteryEventId); // first_step
  eventIds.push((await ingest(studentId, 'band_progression', '2026-11-02')).masteryEventId); // band_riser
  await sleep(30);
  mid = new Date().toISOString();
  await sleep(30);
  eventIds.push((await ingest(studentId, 'subskill_state_up', '2026-11-03')).masteryEventId);
  const badge = (await profile(studentId)).badges.find((b: { code: string }) => b.code === 'band_riser');
  const res = await client(t.app, w.a.teacherToken).post(`/api/teachers/badges/${badge.studentBadgeId}/rescind`, {
    overrideCode: 'Gam_Award_Invalid_05',
  });
  expect(res.statusCode, res.body).toBe(200);
  rescinded = res.json();
}, 120_000);

describe('GET /api/admin/gamification/audit', () => {
  it('returns the raw streams of the student from the event store', async () => {
    const res = await engine().get(`${AUDIT}?studentId=${studentId}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ studentId, from: null, to: null });
    expect(body.masteryEvents.map((e: { eventId: string }) => e.eventId)).toEqual(eventIds);
    expect(body.masteryEvents.map((e: { streamVersion: string }) => e.streamVersion)).toEqual(['1', '2', '3']);
    expect(body.masteryEvents[0]).toEqual({
      eventId: eventIds[0],
      streamVersion: '1',
      type: 'MasteryEventRecorded',
      createdAt: expect.any(String),
      data: expect.objectContaining({ masteryEventId: eventIds[0], sourceKind: 'band_progression', ruleVersion: 2 }),
      metadata: expect.objectContaining({ causationId: expect.stringMatching(/^audit-/) }),
    });
    expect(body.badgeAwards.map((e: { data: { code: string } }) => e.data.code)).toEqual(['first_step', 'band_riser']);
    expect(body.badgeRescinds).toEqual([
      expect.objectContaining({
        type: 'BadgeRescinded',
        data: expect.objectContaining({ studentBadgeId: rescinded.studentBadgeId }),
      }),
    ]);
    const xpTypes = body.xpTransactions.map(
      (e: { type: string; data: { kind: string } }) => `${e.type}:${e.data.kind}`,
    );
    expect(xpTypes).toEqual([
      'XpCredited:mastery_credit',
      'XpCredited:badge_bonus',
      'XpCredited:mastery_credit',
      'XpCredited:badge_bonus',
      'XpCredited:mastery_credit',
      'XpReversed:rescind_reversal',
    ]);
    const [ledger] = await t.db.sql`select count(*)::int as n from gam_xp_ledger where student_id = ${studentId}`;
    expect(body.xpTransactions).toHaveLength(ledger!.n);
  });

  it('keeps to events created in [from, to)', async () => {
    const before = (await engine().get(`${AUDIT}?studentId=${studentId}&to=${mid}`)).json();
    expect(before.to).toBe(mid);
    expect(before.masteryEvents.map((e: { eventId: string }) => e.eventId)).toEqual(eventIds.slice(0, 2));
    expect(before.badgeRescinds).toEqual([]);
    const after = (await engine().get(`${AUDIT}?studentId=${studentId}&from=${mid}`)).json();
    expect(after.masteryEvents.map((e: { eventId: string }) => e.eventId)).toEqual(eventIds.slice(2));
    expect(after.badgeAwards).toEqual([]);
    expect(after.badgeRescinds).toHaveLength(1);
    // from is inclusive and to exclusive: the first event's own instant keeps it in [t, …) and out of [… , t).
    const first = before.masteryEvents[0].createdAt;
    const at = (q: string) => engine().get(`${AUDIT}?studentId=${studentId}&${q}`);
    expect((await at(`from=${first}`)).json().masteryEvents[0].eventId).toBe(eventIds[0]);
    expect((await at(`to=${first}`)).json().masteryEvents).toEqual([]);
    expect((await at(`from=${mid}&to=2020-01-01T00:00:00Z`)).statusCode).toBe(422);
  });

  it('follows the tenant rules: another organization or unknown student 404, without RUN_BACKOFFICE 403', async () => {
    expect((await client(t.app, w.b.adminToken).get(`${AUDIT}?studentId=${studentId}`)).statusCode).toBe(404);
    expect((await engine().get(`${AUDIT}?studentId=${w.b.studentId}`)).statusCode).toBe(404);
    expect((await engine().get(`${AUDIT}?studentId=987654321`)).statusCode).toBe(404);
    expect((await engine().get(`${AUDIT}?studentId=${w.a.teacherId}`)).statusCode).toBe(404);
    expect((await client(t.app, w.a.teacherToken).get(`${AUDIT}?studentId=${studentId}`)).statusCode).toBe(403);
    expect((await client(t.app, w.superToken).get(`${AUDIT}?studentId=${studentId}`)).statusCode).toBe(200);
    expect((await engine().get(AUDIT)).statusCode).toBe(422);
  });
});

describe('POST /api/admin/gamification/replay', () => {
  it('finds no drift for a clean student, now and as of an earlier instant', async () => {
    const res = await replay(studentId);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const current = await profile(studentId);
    // 25 + 15 first_step, 25 + 15 band_riser (rescinded: −15), 20.
    expect(body.derived).toEqual({ xpBalance: 85, badgeCodes: ['first_step'], avatarTier: 1 });
    expect(body.stored).toEqual(body.derived);
    expect(body.derived.xpBalance).toBe(current.xpBalance);
    expect(body).toMatchObject({
      studentId,
      drift: { xpBalance: false, badges: false, avatarTier: false },
      hasDrift: false,
    });

    const earlier = (await replay(studentId, mid)).json();
    expect(earlier.asOf).toBe(mid);
    expect(earlier.derived).toEqual({ xpBalance: 80, badgeCodes: ['band_riser', 'first_step'], avatarTier: 1 });
    expect(earlier.stored).toEqual(earlier.derived);
    expect(earlier.hasDrift).toBe(false);
    expect((await replay(studentId, '2020-01-01T00:00:00Z')).json()).toMatchObject({
      derived: { xpBalance: 0, badgeCodes: [], avatarTier: 1 },
      hasDrift: false,
    });
  });

  it('shows drift on the key whose read-model row was changed behind the service, and none after a rebuild', async () => {
    const clean = await profile(studentId);
    // Forged rows carry a millisecond timestamp, like every row the projection writes (asOf is in milliseconds).
    const at = new Date();
    // An XP row no event stands behind (the ledgers refuse UPDATE and DELETE, so it is an extra row).
    await t.db.sql`
      insert into gam_xp_ledger (id, event_id, student_id, mastery_event_id, kind, amount, session_id, rule_version, recorded_at)
      values (nextval('gam_xp_transaction_id_seq'), ${randomUUID()}, ${studentId}, ${eventIds[0]!}, 'mastery_credit', 99,
              'forged', 1, ${at})`;
    const xp = (await replay(studentId)).json();
    expect(xp.drift).toEqual({ xpBalance: true, badges: false, avatarTier: false });
    expect(xp).toMatchObject({ hasDrift: true, derived: { xpBalance: 85 }, stored: { xpBalance: 184 } });

    // A badge award row, and mastery-event rows that lift the stored tier.
    await t.db.sql`
      insert into gam_badge_awards (id, event_id, student_id, code, triggering_mastery_event_id, rule_version, awarded_at)
      values (nextval('gam_student_badge_id_seq'), ${randomUUID()}, ${studentId}, 'domain_builder', ${eventIds[2]!}, 1, ${at})`;
    for (let i = 0; i < 2; i++) {
      await t.db.sql`
        insert into gam_mastery_events (id, student_id, organization_id, source_kind, school_day, session_id,
                                        engine_event_id, occurred_at, recorded_at)
        values (${randomUUID()}, ${studentId}, ${w.a.id}, 'band_progression', '2026-11-04', 'forged',
                ${`forged-${serial++}`}, ${at}, ${at})`;
    }
    const all = (await replay(studentId)).json();
    expect(all.drift).toEqual({ xpBalance: true, badges: true, avatarTier: true });
    expect(all.stored).toMatchObject({ badgeCodes: ['domain_builder', 'first_step'], avatarTier: 2 });
    // As of before the forged rows, the read model still agreed.
    expect((await replay(studentId, mid)).json().hasDrift).toBe(false);

    await rebuildProjection({ sql: t.db.sql, store: t.runtime.store }, gamificationLedgerProjection);
    const rebuilt = (await replay(studentId)).json();
    expect(rebuilt.hasDrift).toBe(false);
    expect(rebuilt.stored).toEqual(rebuilt.derived);
    expect(await profile(studentId)).toEqual(clean);
  });

  it('follows the tenant rules: another organization or unknown student 404, without RUN_BACKOFFICE 403', async () => {
    expect((await replay(studentId, undefined, w.b.adminToken)).statusCode).toBe(404);
    expect((await replay(w.b.studentId)).statusCode).toBe(404);
    expect((await replay(987_654_321)).statusCode).toBe(404);
    expect((await replay(studentId, undefined, w.a.teacherToken)).statusCode).toBe(403);
    expect((await replay(studentId, undefined, w.a.principalToken)).statusCode).toBe(403);
    expect((await replay(studentId, undefined, w.superToken)).statusCode).toBe(200);
    expect((await engine().post(REPLAY, { studentId })).statusCode).toBe(422);
  });
});
