import { client, useTestWorld } from '@qiraa/app/testing';
import { expect, it } from 'vitest';
import type { TrainingLevelNumber } from '../events';
import { endDay, moveLevel, type Place, startLevel } from '../testing/trainingEventsFixture';

const { t, w } = useTestWorld();

/** The first 30 school days from Sunday 4 October 2026 (Friday and Saturday are the weekend). */
function schoolDays(count: number): string[] {
  const days: string[] = [];
  for (let at = Date.parse('2026-10-04T00:00:00Z'); days.length < count; at += 86_400_000) {
    const weekday = new Date(at).getUTCDay();
    if (weekday !== 5 && weekday !== 6) days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

interface Child {
  name: string;
  start: TrainingLevelNumber;
  /** Counted and correct answers on school day `day` (1-based). */
  day(day: number): [number, number];
  /** A level move before the practice of that school day. */
  move?: { day: number; to: TrainingLevelNumber };
}

const CLASS: Child[] = [
  // Alternating bad and perfect days: never three bad in a row, never at level 1.
  { name: 'steady', start: 2, day: (d) => (d % 2 ? [5, 2] : [8, 8]) },
  // 40 percent every day at level 2: TAL-01 on day 3, open to the end.
  { name: 'stalled', start: 2, day: () => [5, 2] },
  // 75 percent at level 1 (no TAL-01), and the level never moves: TAL-02 on day 16 (25 October, 21 days).
  { name: 'slow', start: 1, day: () => [8, 6] },
  // 25 percent at level 1: both, TAL-01 on day 3 and TAL-02 on day 16.
  { name: 'both', start: 1, day: () => [4, 1] },
  // Level 3 at 25 percent: TAL-01 on day 3; moved down before day 10: resolved (TAL-03); the new stay at
  // level 2 stays at 25 percent: TAL-01 again on day 12.
  { name: 'moved', start: 3, day: () => [4, 1], move: { day: 10, to: 2 } },
  // Two counted answers a day: never enough for TAL-01, level 2.
  { name: 'short', start: 2, day: () => [2, 0] },
];

it('a class practising 30 school days: every alert on the day its rule says, each notified once', async () => {
  const days = schoolDays(30);
  const places = new Map<string, Place>();
  for (const child of CLASS) {
    const res = await client(t.app, w.superToken).post(`/api/classes/${w.a.classId}/students`, { fullNameAr: 'طفل' });
    expect(res.statusCode, res.body).toBe(201);
    const p: Place = {
      studentId: res.json().studentId,
      organizationId: w.a.id,
      skillId: 'letter_sounds',
      measureCode: 'letter_sounds',
    };
    places.set(child.name, p);
    await startLevel(t.runtime.store, p, child.start, days[0]!);
  }
  const level = new Map(CLASS.map((c) => [c.name, c.start]));
  const raisedOn = new Map<string, number>();
  const resolvedOn = new Map<string, number>();
  const seen = async (day: number) => {
    await t.runtime.projector.catchUp();
    await t.runtime.reactor.catchUp();
    const rows = await t.db.sql<{ alert_id: string; student_id: string; kind: string; status: string }[]>`
      select alert_id, student_id::text, kind, status from trn_alerts
      where student_id = any(${[...places.values()].map((p) => p.studentId)}::bigint[])`;
    for (const r of rows) {
      if (!raisedOn.has(r.alert_id)) raisedOn.set(r.alert_id, day);
      if (r.status === 'resolved' && !resolvedOn.has(r.alert_id)) resolvedOn.set(r.alert_id, day);
    }
  };
  for (const [i, date] of days.entries()) {
    const day = i + 1;
    for (const child of CLASS) {
      const p = places.get(child.name)!;
      if (child.move?.day === day) {
        await moveLevel(t.runtime.store, p, level.get(child.name)!, child.move.to, date);
        level.set(child.name, child.move.to);
      }
      const [counted, correct] = child.day(day);
      await endDay(t.runtime.store, p, level.get(child.name)!, date, counted, correct);
    }
    await seen(day);
  }

  const nameOf = new Map([...places].map(([name, p]) => [p.studentId, name]));
  const alerts = await t.db.sql<
    { alert_id: string; student_id: string; kind: string; level_number: number; status: string }[]
  >`
    select alert_id, student_id::text, kind, level_number, status from trn_alerts
    where student_id = any(${[...places.values()].map((p) => p.studentId)}::bigint[])`;
  const outcome = alerts
    .map((a) => [
      nameOf.get(Number(a.student_id)),
      a.kind,
      a.level_number,
      raisedOn.get(a.alert_id),
      a.status,
      resolvedOn.get(a.alert_id) ?? null,
    ])
    .sort((x, y) => String(x[0]).localeCompare(String(y[0])) || Number(x[3]) - Number(y[3]));
  expect(outcome).toEqual([
    ['both', 'no_progress_at_level', 1, 3, 'open', null],
    ['both', 'support_review_suggested', 1, 16, 'open', null],
    ['moved', 'no_progress_at_level', 3, 3, 'resolved', 10],
    ['moved', 'no_progress_at_level', 2, 12, 'open', null],
    ['slow', 'support_review_suggested', 1, 16, 'open', null],
    ['stalled', 'no_progress_at_level', 2, 3, 'open', null],
  ]);

  // Each alert reached the class teacher exactly once, in the kind its alert maps to.
  const sent = await t.db.sql<{ kind: string; source_entity_id: string; n: number }[]>`
    select kind, source_entity_id, count(*)::int as n from notifications
    where source_entity_type = 'training_progress_alert' and recipient_user_id = ${w.a.teacherId}
      and source_entity_id = any(${alerts.map((a) => a.alert_id)}) group by kind, source_entity_id`;
  expect(sent).toHaveLength(alerts.length);
  for (const n of sent) {
    const alert = alerts.find((a) => a.alert_id === n.source_entity_id)!;
    expect([n.kind, n.n]).toEqual([
      alert.kind === 'no_progress_at_level' ? 'training_no_progress' : 'training_support_review_suggested',
      1,
    ]);
  }
}, 240_000);
