import { client, useTestWorld } from '@qiraa/app/testing';
import { rebuildProjection } from '@qiraa/projections';
import { describe, expect, it } from 'vitest';
import { openAlertsOf } from '../queries/alertQueries';
import { alertsNotifier } from '../reactions/alertsNotifier';
import { endDay, moveLevel, type Place, startLevel } from '../testing/trainingEventsFixture';

const { t, w } = useTestWorld();
const SKILL = 'familiar_word_reading';

async function newStudent(classId = w.a.classId, token = w.superToken): Promise<number> {
  const res = await client(t.app, token).post(`/api/classes/${classId}/students`, { fullNameAr: 'سلمى' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().studentId;
}
const placeOf = (studentId: number, organizationId = w.a.id): Place => ({
  studentId,
  organizationId,
  skillId: SKILL,
  measureCode: 'word_recognition',
});
/** A row of GET /api/training/alerts, as far as these specs read it. */
interface AlertItem {
  alertId: string;
  studentId: number;
  titleAr: string;
  messageAr: string;
  [field: string]: unknown;
}
const settle = async () => {
  await t.runtime.projector.catchUp();
  await t.runtime.reactor.catchUp();
};
const alertsOfStudent = async (studentId: number, query = `classId=${w.a.classId}&status=all`) => {
  const res = await client(t.app, w.a.teacherToken).get(`/api/training/alerts?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as AlertItem[]).filter((a) => a.studentId === studentId);
};
const notificationsOf = (studentId: number) =>
  t.db.sql<{ kind: string; recipient_user_id: string; payload: Record<string, unknown>; source_entity_id: string }[]>`
    select kind, recipient_user_id::text, payload, source_entity_id from notifications
    where source_entity_type = 'training_progress_alert' and payload->>'studentId' = ${String(studentId)}
    order by created_at`;

describe('training alerts', () => {
  it('TAL-01 raises no_progress_at_level on the third bad day, notifies the class teachers once, TAL-03 resolves it', async () => {
    const s = await newStudent();
    const p = placeOf(s);
    await startLevel(t.runtime.store, p, 2, '2026-10-04');
    await endDay(t.runtime.store, p, 2, '2026-10-04', 8, 7);
    await endDay(t.runtime.store, p, 2, '2026-10-05', 5, 2);
    await endDay(t.runtime.store, p, 2, '2026-10-06', 4, 1);
    await settle();
    expect(await alertsOfStudent(s)).toEqual([]);
    await endDay(t.runtime.store, p, 2, '2026-10-07', 5, 2);
    await settle();
    const [alert, ...more] = await alertsOfStudent(s);
    expect(more).toEqual([]);
    expect(alert).toMatchObject({
      studentId: s,
      fullNameAr: 'سلمى',
      skillId: SKILL,
      skillLabelAr: 'قراءة الكلمات المألوفة',
      measureCode: 'word_recognition',
      levelNumber: 2,
      levelNameAr: 'النموّ',
      kind: 'no_progress_at_level',
      status: 'open',
      acknowledgedAt: null,
      evidence: {
        sessions: [
          { date: '2026-10-05', counted: 5, correct: 2 },
          { date: '2026-10-06', counted: 4, correct: 1 },
          { date: '2026-10-07', counted: 5, correct: 2 },
        ],
        daysAtLevel: 3,
      },
    });
    expect(alert!.titleAr.length).toBeGreaterThan(0);
    expect(alert!.messageAr).toContain('سلمى');
    const [stored] = await t.db
      .sql`select rule_id, rule_set_version from trn_alerts where alert_id = ${alert!.alertId}`;
    expect(stored).toEqual({ rule_id: 'TAL-01', rule_set_version: 'alerts-v1' });

    // One notification per class teacher, with the spec's payload; a rebuild of the notifier sends nothing again.
    const sent = await notificationsOf(s);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ kind: 'training_no_progress', recipient_user_id: String(w.a.teacherId) });
    expect(sent[0]!.source_entity_id).toBe(alert!.alertId);
    expect(sent[0]!.payload).toEqual({
      studentId: String(s),
      classId: w.a.classId,
      studentName: 'سلمى',
      alertId: alert!.alertId,
      skillId: SKILL,
      skillLabelAr: 'قراءة الكلمات المألوفة',
      levelNumber: 2,
      levelNameAr: 'النموّ',
    });
    await t.db.sql`update reaction_checkpoints set checkpoint = null where name = ${alertsNotifier.name}`;
    await settle();
    expect(await notificationsOf(s)).toHaveLength(1);

    // A fourth bad day raises nothing more in the same stay.
    await endDay(t.runtime.store, p, 2, '2026-10-08', 5, 1);
    await settle();
    expect(await alertsOfStudent(s)).toHaveLength(1);
    expect(await openAlertsOf(t.db.sql, s)).toEqual(
      new Map([[SKILL, [{ alertId: alert!.alertId, kind: 'no_progress_at_level', acknowledged: false }]]]),
    );

    // Acknowledge once: 200, then 409 already_acknowledged; still listed as open (not resolved).
    const ack = await client(t.app, w.a.teacherToken).post(`/api/training/alerts/${alert!.alertId}/acknowledge`, {});
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json()).toEqual({ alertId: alert!.alertId, acknowledgedAt: expect.any(String) });
    const again = await client(t.app, w.a.teacherToken).post(`/api/training/alerts/${alert!.alertId}/acknowledge`, {});
    expect([again.statusCode, again.json().reason]).toEqual([409, 'already_acknowledged']);
    expect(await alertsOfStudent(s, `classId=${w.a.classId}`)).toEqual([
      expect.objectContaining({ status: 'acknowledged', acknowledgedAt: ack.json().acknowledgedAt }),
    ]);

    // The level moves down: resolved (TAL-03); acknowledge is then 409 already_resolved; `open` leaves it out.
    await moveLevel(t.runtime.store, p, 2, 1, '2026-10-11');
    await settle();
    expect(await alertsOfStudent(s, `classId=${w.a.classId}`)).toEqual([]);
    expect(await alertsOfStudent(s)).toEqual([expect.objectContaining({ status: 'resolved' })]);
    const late = await client(t.app, w.a.teacherToken).post(`/api/training/alerts/${alert!.alertId}/acknowledge`, {});
    expect([late.statusCode, late.json().reason]).toEqual([409, 'already_resolved']);
    expect(await openAlertsOf(t.db.sql, s)).toEqual(new Map());
    // A rebuild of the reactor re-derives the same stays and appends nothing new.
    const before = await t.db.sql`select count(*)::int as n from es_events where stream_id like 'trainingalert-%'`;
    await rebuildProjection(
      { sql: t.db.sql, store: t.runtime.store },
      (await import('../projections/alertsReactor')).alertsReactor,
    );
    const after = await t.db.sql`select count(*)::int as n from es_events where stream_id like 'trainingalert-%'`;
    expect(after).toEqual(before);
  });

  it('TAL-02 suggests a support review on the day the stay at level 1 reaches 21 days with 3+ training days', async () => {
    const s = await newStudent();
    const p = placeOf(s);
    await startLevel(t.runtime.store, p, 1, '2026-10-01');
    for (const date of ['2026-10-01', '2026-10-08', '2026-10-21']) await endDay(t.runtime.store, p, 1, date, 8, 6);
    await settle();
    expect(await alertsOfStudent(s)).toEqual([]);
    await endDay(t.runtime.store, p, 1, '2026-10-22', 8, 6);
    await settle();
    expect(await alertsOfStudent(s)).toEqual([
      expect.objectContaining({
        kind: 'support_review_suggested',
        levelNumber: 1,
        evidence: expect.objectContaining({ daysAtLevel: 21 }),
      }),
    ]);
    const sent = await notificationsOf(s);
    expect(sent.map((n) => n.kind)).toEqual(['training_support_review_suggested']);
    // The long stay's notification names its length (spec: "for the long stay, daysAtLevel").
    expect(sent[0]!.payload).toMatchObject({ levelNumber: 1, daysAtLevel: 21 });
  });

  it('refuses: not exactly one scope 422, another teacher’s class 403 NOT_CLASS_TEACHER, another organization 404', async () => {
    const teacher = client(t.app, w.a.teacherToken);
    expect((await teacher.get('/api/training/alerts')).statusCode).toBe(422);
    const both = await teacher.get(`/api/training/alerts?classId=${w.a.classId}&groupId=${crypto.randomUUID()}`);
    expect([both.statusCode, both.json().code]).toEqual([422, 'VALIDATION_ERROR']);
    const other = await teacher.get(`/api/training/alerts?classId=${w.a.otherClassId}`);
    expect([other.statusCode, other.json().code]).toEqual([403, 'NOT_CLASS_TEACHER']);
    expect((await teacher.get(`/api/training/alerts?classId=${w.b.classId}`)).statusCode).toBe(404);
    expect((await teacher.get('/api/training/alerts?classId=cls_AAAAAAAAAAAA')).statusCode).toBe(404);
    expect((await teacher.get(`/api/training/alerts?groupId=${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect((await teacher.get('/api/training/alerts?groupId=not-a-uuid')).statusCode).toBe(422);
    expect((await teacher.get(`/api/training/alerts?classId=${w.a.classId}&status=closed`)).statusCode).toBe(422);
    const admin = await client(t.app, w.a.adminToken).get(`/api/training/alerts?classId=${w.a.classId}`);
    expect([admin.statusCode, admin.json().code]).toEqual([403, 'NOT_CLASS_TEACHER']);
    expect((await teacher.post('/api/training/alerts/not-a-uuid/acknowledge', {})).statusCode).toBe(422);
    expect((await teacher.post(`/api/training/alerts/${crypto.randomUUID()}/acknowledge`, {})).statusCode).toBe(404);
  });

  it('support groups: alerts by groupId for the owner; another teacher 403, another organization 404; acknowledge reach', async () => {
    const s = await newStudent();
    const p = placeOf(s);
    await startLevel(t.runtime.store, p, 3, '2026-11-01');
    for (const date of ['2026-11-01', '2026-11-02', '2026-11-03']) await endDay(t.runtime.store, p, 3, date, 4, 0);
    await settle();
    const created = await client(t.app, w.a.teacherToken).post('/api/training/groups', {
      nameAr: 'مجموعة القراءة',
      studentIds: [s],
    });
    expect(created.statusCode, created.body).toBe(201);
    const groupId = created.json().groupId as string;
    expect(created.json()).toMatchObject({ nameAr: 'مجموعة القراءة', ownerUserId: w.a.teacherId, studentIds: [s] });
    const byGroup = await client(t.app, w.a.teacherToken).get(`/api/training/alerts?groupId=${groupId}`);
    expect(byGroup.statusCode, byGroup.body).toBe(200);
    expect(byGroup.json().items.map((a: { studentId: number; kind: string }) => [a.studentId, a.kind])).toEqual([
      [s, 'no_progress_at_level'],
    ]);
    const other = await client(t.app, w.a.otherTeacherToken).get(`/api/training/alerts?groupId=${groupId}`);
    expect([other.statusCode, other.json().code]).toEqual([403, 'NOT_CLASS_TEACHER']);
    expect((await client(t.app, w.b.teacherToken).get(`/api/training/alerts?groupId=${groupId}`)).statusCode).toBe(404);
    // Group management: not a child the teacher teaches 403, another organization's child 404.
    const foreign = await client(t.app, w.a.teacherToken).post('/api/training/groups', {
      nameAr: 'ب',
      studentIds: [w.b.studentId],
    });
    expect(foreign.statusCode).toBe(404);
    const notTaught = await client(t.app, w.a.otherTeacherToken).post('/api/training/groups', {
      nameAr: 'ب',
      studentIds: [s],
    });
    expect(notTaught.statusCode).toBe(403);
    expect((await client(t.app, w.a.teacherToken).get('/api/training/groups')).json().items).toContainEqual(
      created.json(),
    );

    // Acknowledge: another organization's teacher 404, a teacher who does not reach the child 403; in parallel, one wins.
    const alertId = byGroup.json().items[0].alertId as string;
    expect(
      (await client(t.app, w.b.teacherToken).post(`/api/training/alerts/${alertId}/acknowledge`, {})).statusCode,
    ).toBe(404);
    expect(
      (await client(t.app, w.a.otherTeacherToken).post(`/api/training/alerts/${alertId}/acknowledge`, {})).statusCode,
    ).toBe(403);
    const parallel = await Promise.all(
      Array.from({ length: 8 }, () =>
        client(t.app, w.a.teacherToken).post(`/api/training/alerts/${alertId}/acknowledge`, {}),
      ),
    );
    expect(parallel.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const events = await t.db
      .sql`select event_type from es_events where stream_id = ${`trainingalert-${alertId}`} order by stream_version`;
    expect(events.map((e) => e.event_type)).toEqual(['TrainingAlertRaised', 'TrainingAlertAcknowledged']);

    // Archived: the group is gone (404), the teacher no longer reaches the child through it.
    expect((await client(t.app, w.a.teacherToken).delete(`/api/training/groups/${groupId}`)).statusCode).toBe(204);
    expect((await client(t.app, w.a.teacherToken).get(`/api/training/alerts?groupId=${groupId}`)).statusCode).toBe(404);
  }, 60_000);
});
