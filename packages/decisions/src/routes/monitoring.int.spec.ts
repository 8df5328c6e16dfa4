import { client, useTestWorld } from '@qiraa/app/testing';
import { setWindows, voidAttempt } from '@qiraa/assessment/testing';
import { eventsOfType } from '@qiraa/eventstore';
import { beforeAll, describe, expect, it } from 'vitest';
import { recomputeSkillStatus } from '../commands/recomputeSkillStatus';
import { type DecisionEvent, streams, decisionEvents as typedDecisionEvents } from '../events';
import { MONITORING_ALERT_CLOSED, REGRESSION_ALERT_RAISED, TREND_DECIDED } from '../events/monitoringEvents';
import { openAcuteRegressionsOf } from '../queries/monitoringOf';
import { decisionRewardsReaction } from '../reactions/decisionRewardsReaction';
import { monitoringNotifier } from '../reactions/monitoringNotifier';
import { recordOrfProbe } from '../testing/orfProbeFixture';

const { t, w } = useTestWorld();
const YEAR = '2026-2027';
const DAY = 86_400_000;

beforeAll(async () => {
  // BOY open now, EOY from 30 days ahead: the goal line's end.
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

/** A probe `daysAgo` days ago with `words` WCPM, decided the way the inline path or the reactor decides. */
async function probe(studentId: number, daysAgo: number, words: number): Promise<string> {
  const id = await recordOrfProbe(t.runtime, place(studentId), new Date(Date.now() - daysAgo * DAY), words);
  await recomputeSkillStatus(t.runtime, studentId);
  return id;
}

const monitoring = async (studentId: number, token = w.a.teacherToken) => {
  const res = await client(t.app, token).get(`/api/sse/students/${studentId}/monitoring`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
/** MER credits are the rewards reaction's: read once it has caught up. */
const trendCredits = async (studentId: number) => {
  await t.runtime.reactor.catchUp(decisionRewardsReaction.name);
  return t.db.sql<{ engine_event_id: string }[]>`
    select engine_event_id from gam_mastery_events where student_id = ${studentId} and source_kind = 'cbm_trend_above_goal'`;
};
const decisionEvents = async <T extends DecisionEvent['type']>(studentId: number, type: T) =>
  eventsOfType(typedDecisionEvents(await t.runtime.store.readStream(streams.decision(studentId))), type);
const notificationsOf = (studentId: number) =>
  t.db.sql<{ kind: string; recipient_user_id: string; payload: { lifecycle?: string; alertId: string } }[]>`
    select kind, recipient_user_id::text, payload from notifications
    where source_entity_type = 'monitoring_alert' and payload->>'studentId' = ${String(studentId)}
    order by created_at, kind`;

describe('progress monitoring', () => {
  it('no probe yet: the safe stop do_not_decide_yet (a 200); five probes: too_few_probes (PMR-09)', async () => {
    const s = await newStudent();
    expect(await monitoring(s)).toMatchObject({
      academicYear: null,
      decision: null,
      safeStop: 'do_not_decide_yet',
      code: 'DO_NOT_DECIDE_YET',
      holdReason: 'no_baseline',
      doNotDecideYet: true,
      probes: [],
      alerts: [],
    });
    for (const [i, words] of [25, 27, 29, 31, 33].entries()) await probe(s, 56 - 7 * i, words);
    expect(await monitoring(s)).toMatchObject({
      academicYear: YEAR,
      decision: null,
      safeStop: 'do_not_decide_yet',
      code: 'DO_NOT_DECIDE_YET',
      holdReason: 'too_few_probes',
      ruleId: 'PMR-09',
      ruleSetVersion: 'v1',
      goalLine: { baselineWcpm: 25, goalWcpm: 45 },
    });
  });

  it('a trend above the goal line earns cbm_trend_above_goal (MER-05) once, its engine event id the trend decision’s', async () => {
    const s = await newStudent();
    for (const [i, words] of [25, 30, 35, 40, 45, 50].entries()) await probe(s, 56 - 7 * i, words);
    const body = await monitoring(s);
    expect(body).toMatchObject({
      decision: 'above_goal',
      safeStop: null,
      code: null,
      holdReason: null,
      doNotDecideYet: false,
      ruleId: 'PMR-02',
      trend: { slope: 5, probes: 6 },
      goalLine: { baselineWcpm: 25, goalWcpm: 45, cutVersion: 'global-2026.1', grade: 2 },
    });
    expect(body.probes.map((p: { wcpm: number }) => p.wcpm)).toEqual([25, 30, 35, 40, 45, 50]);
    expect(await trendCredits(s)).toEqual([{ engine_event_id: body.trendDecisionId }]);
    const decided = (await decisionEvents(s, TREND_DECIDED)).at(-1)!;
    expect(decided.eventId).toBe(body.trendDecisionId);
    expect(decided.data).toMatchObject({ mastery: { ruleId: 'MER-05', sourceKind: 'cbm_trend_above_goal' } });

    // Recomputed again, also in parallel: nothing appended, nothing credited.
    const before = (await t.runtime.store.readStream(streams.decision(s))).length;
    await Promise.all([1, 2, 3].map(() => recomputeSkillStatus(t.runtime, s)));
    expect((await t.runtime.store.readStream(streams.decision(s))).length).toBe(before);
    // A seventh probe, still above goal: a new trend decision, no second credit in the year.
    await probe(s, 7, 55);
    expect((await monitoring(s)).decision).toBe('above_goal');
    expect(await decisionEvents(s, TREND_DECIDED)).toHaveLength(7);
    expect(await trendCredits(s)).toHaveLength(1);
  });

  it('a void removing a probe changes the trend: the superseding decision is the safe stop', async () => {
    const s = await newStudent();
    const ids: string[] = [];
    for (const [i, words] of [25, 30, 35, 40, 45, 50].entries()) ids.push(await probe(s, 56 - 7 * i, words));
    const decided = await monitoring(s);
    expect(decided.decision).toBe('above_goal');
    await voidAttempt(t.db.sql, t.runtime.store, 'oral_text', ids[3]!);
    await recomputeSkillStatus(t.runtime, s);
    const after = await monitoring(s);
    expect(after).toMatchObject({
      decision: null,
      safeStop: 'do_not_decide_yet',
      code: 'DO_NOT_DECIDE_YET',
      holdReason: 'too_few_probes',
    });
    expect(after.probes.map((p: { attemptId: string }) => p.attemptId)).not.toContain(ids[3]);
    const last = (await decisionEvents(s, TREND_DECIDED)).at(-1)!;
    expect(last.data).toMatchObject({ supersedesTrendDecisionId: decided.trendDecisionId });
    expect(last.data.voidEventIds).toHaveLength(1);
    // The credit the first decision earned stays (XP is append-only), and nothing more is credited.
    expect(await trendCredits(s)).toHaveLength(1);
  });

  it('an acute regression opens an alert and notifies the class teachers once; a probe back closes it', async () => {
    const s = await newStudent();
    for (const [i, words] of [25, 27, 29, 31].entries()) await probe(s, 42 - 7 * i, words);
    const low = await probe(s, 14, 15);
    const body = await monitoring(s);
    expect(body.alerts).toEqual([
      expect.objectContaining({
        alertKind: 'acute_regression',
        status: 'open',
        ruleId: 'PMR-03',
        anchorAttemptId: low,
        detail: { wcpm: 15, predictedWcpm: 33, dropWcpm: 18 },
      }),
    ]);
    expect(body.probes.at(-1)).toMatchObject({ attemptId: low, acuteRegression: true });
    const alertId = body.alerts[0].alertId as string;
    expect(await openAcuteRegressionsOf(t.db.sql, { classId: w.a.classId })).toContainEqual({
      studentId: s,
      alertIds: [alertId],
    });
    expect(await openAcuteRegressionsOf(t.db.sql, { studentIds: [s, w.a.studentId] })).toEqual([
      { studentId: s, alertIds: [alertId] },
    ]);

    await t.runtime.reactor.catchUp(monitoringNotifier.name);
    const sent = await notificationsOf(s);
    expect(sent.map((n) => [n.kind, Number(n.recipient_user_id), n.payload.lifecycle ?? null])).toEqual([
      ['student_alert_assigned', w.a.teacherId, null],
      ['cbm_alert_lifecycle', w.a.teacherId, 'opened'],
    ]);
    expect(sent.every((n) => n.payload.alertId === alertId)).toBe(true);

    // Recomputes, a re-delivery of every alert step (the notifier rewound to the log's start): nobody is notified again.
    await Promise.all([1, 2].map(() => recomputeSkillStatus(t.runtime, s)));
    expect(await decisionEvents(s, REGRESSION_ALERT_RAISED)).toHaveLength(1);
    await t.db.sql`update reaction_checkpoints set checkpoint = null where name = ${monitoringNotifier.name}`;
    await t.runtime.reactor.catchUp(monitoringNotifier.name);
    expect(await notificationsOf(s)).toHaveLength(2);

    // The child reads at the trend again: closed (recovered), one closing notification.
    await probe(s, 7, 36);
    const closed = await monitoring(s);
    expect(closed.alerts.filter((a: { alertKind: string }) => a.alertKind === 'acute_regression')).toEqual([]);
    // Six probes over five weeks with that dip: the least-squares trend is below the goal line (PMR-04 opens).
    expect(closed).toMatchObject({ decision: 'below_goal', ruleId: 'PMR-02' });
    expect(closed.alerts).toEqual([
      expect.objectContaining({ alertKind: 'trend_below_goal', status: 'open', ruleId: 'PMR-04' }),
    ]);
    const [step] = await decisionEvents(s, MONITORING_ALERT_CLOSED);
    expect(step?.data).toMatchObject({ alertId, status: 'closed', closeReason: 'recovered' });
    expect(await openAcuteRegressionsOf(t.db.sql, { studentIds: [s] })).toEqual([]);
    await t.runtime.reactor.catchUp(monitoringNotifier.name);
    const ofAlert = (await notificationsOf(s)).filter((n) => n.payload.alertId === alertId);
    expect(ofAlert.map((n) => n.payload.lifecycle ?? null)).toEqual([null, 'opened', 'closed']);
  });

  it('tenant rule: another organization’s student is 404, a parent or the child is 403', async () => {
    const res = await client(t.app, w.b.teacherToken).get(`/api/sse/students/${w.a.studentId}/monitoring`);
    expect(res.statusCode).toBe(404);
    expect((await client(t.app, w.a.adminToken).get(`/api/sse/students/987654321/monitoring`)).statusCode).toBe(404);
    expect((await client(t.app, w.a.parentToken).get(`/api/sse/students/${w.a.studentId}/monitoring`)).statusCode).toBe(
      403,
    );
    expect(
      (await client(t.app, w.a.studentToken).get(`/api/sse/students/${w.a.studentId}/monitoring`)).statusCode,
    ).toBe(403);
    expect(
      (await client(t.app, w.a.teacherToken).get(`/api/sse/students/${w.a.studentId}/monitoring?academicYear=2026`))
        .statusCode,
    ).toBe(422);
  });
});
