import { client, useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';

const { t, w } = useTestWorld();
let serial = 0;

const engine = () => client(t.app, w.a.adminToken);
const profile = async (studentId: number) => {
  const res = await engine().get(`/api/students/${studentId}/gamification/profile`);
  expect(res.statusCode, res.body).toBe(200);
  const { studentId: _id, badges, ...rest } = res.json();
  return { ...rest, badges: badges.map((b: { code: string }) => b.code) };
};

async function newStudent(): Promise<number> {
  const res = await engine().post(`/api/classes/${w.a.classId}/students`, { fullNameAr: 'طالب' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().studentId;
}

/** A student's day of practice: several sessions over school days, enough for badges, tiers and a streak. */
function history(studentId: number, tag: string) {
  const kinds = ['band_progression', 'subskill_state_up', 'bundle_completion', 'cbm_trend_above_goal'];
  const days = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05', '2026-11-08'];
  return Array.from({ length: 18 }, (_, i) => ({
    kind: 'mastery_event',
    engineEventId: `batch-${tag}-${i}`,
    studentId,
    sourceKind: kinds[i % kinds.length],
    schoolDay: days[Math.floor(i / 3)],
    occurredAt: `${days[Math.floor(i / 3)]}T08:00:00Z`,
    sessionId: `${tag}-${Math.floor(i / 4)}`,
  }));
}

describe('POST /api/gamification/mastery-events/batch', () => {
  it('decides a batch exactly as the same events sent one by one', async () => {
    const [one, many] = [await newStudent(), await newStudent()];
    const singles = [];
    for (const event of history(one, `one-${serial}`)) {
      const res = await engine().post('/api/gamification/mastery-events', event);
      expect(res.statusCode, res.body).toBe(201);
      singles.push(res.json());
    }
    const res = await engine().post('/api/gamification/mastery-events/batch', {
      events: history(many, `many-${serial++}`),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.recorded).toBe(18);
    expect(body.results.map((r: { xpCredited: number; badgeCode: string }) => [r.xpCredited, r.badgeCode])).toEqual(
      singles.map((r) => [r.xpCredited, r.badgeCode]),
    );
    expect(await profile(many)).toEqual(await profile(one));
    const [rollup] = await t.db.sql`
      select total from gam_mastery_day_counts where student_id = ${many} order by school_day desc limit 1`;
    expect(rollup).toEqual({ total: 18 });
  });

  it('answers each event on its own: duplicates (stored or earlier in the batch), halts, other organizations', async () => {
    const studentId = await newStudent();
    const [first, second] = history(studentId, `mixed-${serial++}`);
    const stored = await engine().post('/api/gamification/mastery-events', first);
    expect(stored.statusCode).toBe(201);
    const res = await engine().post('/api/gamification/mastery-events/batch', {
      events: [
        first,
        second,
        second,
        { kind: 'halt', engineEventId: `halt-${serial}`, studentId, signal: 'do_not_decide_yet' },
        { ...second, engineEventId: `elsewhere-${serial}`, studentId: w.b.studentId },
        { kind: 'halt', engineEventId: `halt-b-${serial}`, studentId: w.b.studentId, signal: 'do_not_decide_yet' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().recorded).toBe(1);
    expect(res.json().results.map((r: { outcome: string; written: boolean }) => [r.outcome, r.written])).toEqual([
      ['duplicate', false],
      ['recorded', true],
      ['duplicate', false],
      ['halted', false],
      ['not_found', false],
      ['not_found', false],
    ]);
    expect(res.json().results[2].masteryEventId).toBe(res.json().results[1].masteryEventId);
    const [rows] = await t.db.sql`select count(*)::int as n from gam_mastery_events where student_id = ${studentId}`;
    expect(rows).toEqual({ n: 2 });
    const [others] = await t.db.sql`
      select count(*)::int as n from gam_mastery_events where student_id = ${w.b.studentId}`;
    expect(others).toEqual({ n: 0 });
  });

  it('refuses more than 500 events, an empty batch, and a caller without RUN_BACKOFFICE', async () => {
    const studentId = w.a.studentId;
    const many = Array.from({ length: 501 }, (_, i) => ({ ...history(studentId, 'x')[0], engineEventId: `big-${i}` }));
    expect((await engine().post('/api/gamification/mastery-events/batch', { events: many })).statusCode).toBe(422);
    expect((await engine().post('/api/gamification/mastery-events/batch', { events: [] })).statusCode).toBe(422);
    const teacher = client(t.app, w.a.teacherToken);
    const res = await teacher.post('/api/gamification/mastery-events/batch', { events: history(studentId, 'y') });
    expect(res.statusCode).toBe(403);
    const [rows] = await t.db.sql`
      select count(*)::int as n from gam_mastery_events where engine_event_id like 'big-%' or engine_event_id like 'batch-y-%'`;
    expect(rows).toEqual({ n: 0 });
  });
});
