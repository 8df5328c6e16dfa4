import { client, useTestWorld } from '@qiraa/app/testing';
import { startSitting } from '@qiraa/assessment/testing';
import { addDays, localInstant, manualClock } from '@qiraa/kernel';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentDay, submitResponse } from '../commands/practiceQueue';
import { currentSlot } from '../engine/foldDay';
import { importTrainingPack, optionKey } from '../testing';

/**
 * One class through a school year's first half (2026-08-31 to 2027-01-14: 98 school days, BOY closing by its
 * calendar, MOY closed by hand), the injected clock driven through every day: the scheduler looks once a day
 * (20:30 in Amman), children practise at set moments. Every time rule must fire exactly once where due: the end
 * of the school day, a window's close (training days and a digital sitting), TAL-01 and TAL-02, the expiry of
 * handoff codes and passkey challenges, and a cluster generation's 60 days (read against the clock).
 */
const TZ = 'Asia/Amman';
const YEAR = '2026-2027';
const FIRST = '2026-08-31';
const LAST = '2027-01-14';
const clock = manualClock(localInstant(FIRST, 9, TZ));
// A relying party, so a teacher can ask for passkey options (a challenge the hourly purge must remove).
const { t, w } = useTestWorld({
  clock,
  env: { WEBAUTHN_RP_ID: 'qiraa.test', WEBAUTHN_ORIGINS: 'https://app.qiraa.test' },
});
const at = (day: string, hour: number, minute = 0) => new Date(localInstant(day, hour, TZ).getTime() + minute * 60_000);
const isSchoolDay = (day: string) => ![5, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());

const calendar: string[] = [];
for (let d = FIRST; d <= LAST; d = addDays(d, 1)) calendar.push(d);
const schoolDays = calendar.filter(isSchoolDay);
/** The leaver practises the first three school days (every answer wrong, leaving after 3 counted), then stops. */
const LEAVER_DAYS = schoolDays.slice(1, 4);
/** The last day of BOY (default calendar): a child opens a day after the school day's end. */
const BOY_LAST = '2026-10-15';
const MOY_CLOSED_BY_HAND = '2027-01-12';
const HANDOFF_DAY = '2026-09-02';
/** A class's clusters computed at 10:00; its generation expires 60 days later to the minute. */
const CLUSTER_DAY = '2026-09-01';
const CLUSTER_EXPIRY_DAY = addDays(CLUSTER_DAY, 60);

const students: Record<'leaver' | 'lateOwl' | 'atClose' | 'sitter', number> = {
  leaver: 0,
  lateOwl: 0,
  atClose: 0,
  sitter: 0,
};
let classId = '';
/** The digital sitting the sitter leaves open on BOY's last day (the calendar's close must stop it). */
let openSitting = '';
/** The world's child's cluster preview a minute before and at the generation's 60 days. */
const clusterPreview: { before: string; at: string; expiresAt: string } = { before: '', at: '', expiresAt: '' };
const closeAnswers: { stoppedSittings: number; endedAtOnce: string | null } = { stoppedSittings: -1, endedAtOnce: '' };
let handoffRowsBeforePurge = 0;

async function answer(studentId: number, right: boolean, until: (counted: number) => boolean) {
  const deps = { sql: t.db.sql, store: t.runtime.store };
  let { fold } = await currentDay(deps, studentId, { open: true, now: clock.now() });
  let counted = 0;
  while (fold && !fold.ended && !until(counted)) {
    const slot = currentSlot(fold)!;
    clock.advance(5_000);
    const outcome = await submitResponse(
      deps,
      studentId,
      { itemId: slot.itemId, selectedOptionKey: await optionKey(t.db.sql, slot.itemId, right) },
      { now: clock.now() },
    );
    if (outcome.answer.counted) counted++;
    fold = outcome.fold;
  }
}

async function look() {
  const runs = await t.runtime.scheduler.runDue();
  expect(runs.filter((r) => r.error !== null)).toEqual([]);
  if (runs.some((r) => Object.values(r.outcome ?? {}).some((n) => n > 0))) await t.runtime.projector.catchUp();
}

beforeAll(async () => {
  const sql = t.db.sql;
  await importTrainingPack(sql);
  const root = client(t.app, w.superToken);
  const cls = await root.post('/api/classes', {
    schoolId: w.a.schoolId,
    name: 'الرابع ب',
    grade: 4,
    academicYear: YEAR,
  });
  expect(cls.statusCode, cls.body).toBe(201);
  classId = cls.json().id;
  let code = 20;
  for (const name of Object.keys(students) as (keyof typeof students)[]) {
    const res = await root.post('/api/users', {
      primaryPersona: 'STUDENT',
      fullNameAr: 'ليلى',
      classId: cls.json().id,
      quickCode: String(code++),
    });
    expect(res.statusCode, res.body).toBe(201);
    students[name] = res.json().id;
  }
  const started = Date.now();
  for (const day of calendar) {
    clock.set(at(day, 9));
    if (LEAVER_DAYS.includes(day)) {
      await answer(students.leaver, false, (counted) => counted >= 3);
      await t.runtime.projector.catchUp();
    }
    if (day === HANDOFF_DAY) {
      const issued = await client(t.app, w.a.teacherToken).post('/api/auth/handoff-codes', {});
      expect(issued.statusCode, issued.body).toBe(201);
      const [codes] = await sql<{ n: number }[]>`select count(*)::int as n from auth_handoff_codes`;
      handoffRowsBeforePurge = codes!.n;
      const options = await client(t.app, w.a.teacherToken).post('/api/auth/webauthn/registration/options', {});
      expect(options.statusCode, options.body).toBe(200);
    }
    if (day === CLUSTER_DAY) {
      clock.set(at(day, 10)); // after the leaver's morning answers, which move the clock on
      const computed = await client(t.app, w.a.teacherToken).post(`/api/cluster/recompute/${w.a.classId}`, {});
      expect(computed.statusCode, computed.body).toBe(200);
    }
    if (day === CLUSTER_EXPIRY_DAY) {
      const preview = async () => {
        const res = await client(t.app, w.a.teacherToken).get(`/api/cluster/student/${w.a.studentId}/preview`);
        expect(res.statusCode, res.body).toBe(200);
        return res.json().assignment as { state: string; expiresAt: string | null };
      };
      clock.set(at(day, 9, 59));
      const before = await preview();
      clock.set(at(day, 10));
      Object.assign(clusterPreview, { before: before.state, at: (await preview()).state, expiresAt: before.expiresAt });
    }
    if (day === BOY_LAST) {
      const sitting = await startSitting(
        { sql, store: t.runtime.store },
        {
          organizationId: w.a.id,
          schoolId: w.a.schoolId,
          classId,
          studentId: students.sitter,
          grade: 4,
          academicYear: YEAR,
          window: 'BOY',
          startedAt: clock.now().toISOString(),
        },
      );
      openSitting = sitting.attemptId;
    }
    if (day === MOY_CLOSED_BY_HAND) {
      await answer(students.atClose, true, (counted) => counted >= 1);
      clock.set(at(day, 11));
      const closed = await client(t.app, w.a.adminToken).post(`/api/admin/assessment-windows/${YEAR}/MOY/close`, {
        organizationId: w.a.id,
      });
      expect(closed.statusCode, closed.body).toBe(200);
      closeAnswers.stoppedSittings = closed.json().stoppedSittings;
      const [day_] = await sql<{ end_reason: string | null }[]>`
        select end_reason from trn_days where student_id = ${students.atClose}`;
      closeAnswers.endedAtOnce = day_?.end_reason ?? null;
    }
    clock.set(at(day, 20, 30));
    await look();
    if (day === BOY_LAST) {
      clock.set(at(day, 20, 45));
      await answer(students.lateOwl, true, (counted) => counted >= 1);
    }
  }
  await t.runtime.projector.catchUp();
  console.log(`school year: ${calendar.length} days in ${Date.now() - started} ms`);
  // About 40 s alone on a shared 2-core machine, most of it the commits of the ledger's claims and completions;
  // the bound only catches a run that went pathological (a look per day must not grow with the history).
  expect(Date.now() - started).toBeLessThan(300_000);
}, 600_000);

describe('a school year of time rules', () => {
  it('the end of the school day ran once on every school day (Sunday to Thursday), never on a weekend', async () => {
    const ticks = await t.db.sql<{ tick: string; attempts: number; done: boolean; due_at: Date }[]>`
      select tick, attempts, completed_at is not null as done, due_at from schedule_runs
      where schedule = 'training.end-of-school-day' order by due_at`;
    expect(ticks.map((r) => r.tick)).toEqual(schoolDays.map((d) => `${TZ} ${d}`));
    expect(schoolDays.length).toBeGreaterThanOrEqual(90);
    expect(ticks.every((r) => r.attempts === 1 && r.done)).toBe(true);
    expect(ticks[0]!.due_at).toEqual(at(FIRST, 20));
  });

  it('the abandoned days ended window_closed at that school day’s end, and TAL-01 counted them: one alert per skill', async () => {
    const days = await t.db.sql<{ school_day: string; end_reason: string; ended_at: Date; counted: number }[]>`
      select school_day::text, end_reason, ended_at, counted from trn_days where student_id = ${students.leaver}
      order by school_day`;
    expect(days.map((d) => [d.school_day, d.end_reason, d.ended_at.toISOString(), d.counted])).toEqual(
      LEAVER_DAYS.map((d) => [d, 'window_closed', at(d, 20).toISOString(), 3]),
    );
    const alerts = await t.db.sql<{ skill_id: string; kind: string; n: number }[]>`
      select skill_id, kind, count(*)::int as n from trn_alerts where student_id = ${students.leaver}
        and kind = 'no_progress_at_level' group by skill_id, kind`;
    const skills = await t.db.sql<{ skill_id: string }[]>`
      select skill_id from trn_alert_levels where student_id = ${students.leaver} order by skill_id`;
    expect(skills.length).toBeGreaterThan(0);
    expect(alerts.map((a) => [a.skill_id, a.n]).sort()).toEqual(skills.map((s) => [s.skill_id, 1]));
  });

  it('TAL-02: the child who stopped practising got the support review once per skill, on the 21st day at level 1', async () => {
    const alerts = await t.db.sql<{ skill_id: string; raised_at: Date; evidence: { daysAtLevel: number } }[]>`
      select skill_id, raised_at, evidence from trn_alerts
      where student_id = ${students.leaver} and kind = 'support_review_suggested' order by skill_id`;
    const levels = await t.db.sql<{ skill_id: string; since: string; level: number }[]>`
      select skill_id, since::text, level from trn_alert_levels where student_id = ${students.leaver} order by skill_id`;
    expect(levels.every((l) => l.level === 1)).toBe(true);
    expect(alerts.map((a) => a.skill_id)).toEqual(levels.map((l) => l.skill_id));
    for (const [i, a] of alerts.entries()) {
      // The daily tick (00:00 UTC) of the 21st calendar day after the level's first day, no new training day since.
      expect(a.raised_at.toISOString()).toBe(`${addDays(levels[i]!.since, 21)}T00:00:00.000Z`);
      expect(a.evidence.daysAtLevel).toBe(21);
    }
    const [raisedEvents] = await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from es_events where event_type = 'TrainingAlertRaised'
        and (data->>'studentId')::bigint = ${students.leaver} and data->>'kind' = 'support_review_suggested'`;
    expect(raisedEvents!.n).toBe(alerts.length);
  });

  it('BOY closed by its calendar: the day opened after the last school day’s end ended window_closed at midnight', async () => {
    const [day] = await t.db.sql<{ school_day: string; end_reason: string; ended_at: Date }[]>`
      select school_day::text, end_reason, ended_at from trn_days where student_id = ${students.lateOwl}`;
    expect(day).toEqual({ school_day: BOY_LAST, end_reason: 'window_closed', ended_at: at(addDays(BOY_LAST, 1), 0) });
  });

  it('BOY closed by its calendar: the sitting left open ended window_closed once, at midnight, by the hourly look', async () => {
    const stops = await t.db.sql<{ data: { reason: string; at: string } }[]>`
      select data from es_events where stream_id = ${`sitting-${openSitting}`} and event_type = 'SittingStopped'`;
    expect(stops.map((e) => [e.data.reason, e.data.at])).toEqual([
      ['window_closed', at(addDays(BOY_LAST, 1), 0).toISOString()],
    ]);
    const runs = await t.db.sql<{ tick: string }[]>`
      select tick from schedule_runs where schedule = 'training.window-close'
        and (outcome->>'stoppedSittings')::int > 0`;
    // The first hourly look after the close: 20:30 in Amman on the Friday after BOY's last day (17 UTC).
    expect(runs.map((r) => r.tick)).toEqual([`${addDays(BOY_LAST, 1)}T17`]);
  });

  it('a cluster generation is read until createdAt + 60 days and not from then on', () => {
    expect(clusterPreview).toEqual({
      before: expect.not.stringMatching(/^no_generation$/),
      at: 'no_generation',
      expiresAt: at(CLUSTER_EXPIRY_DAY, 10).toISOString(),
    });
  });

  it('MOY closed by hand: the open training day ended window_closed at once, at the close', async () => {
    expect(closeAnswers).toEqual({ stoppedSittings: 0, endedAtOnce: 'window_closed' });
    const [day] = await t.db.sql<
      { ended_at: Date }[]
    >`select ended_at from trn_days where student_id = ${students.atClose}`;
    expect(day!.ended_at).toEqual(at(MOY_CLOSED_BY_HAND, 11));
  });

  it('the expired handoff code and passkey challenge were removed once; no run failed or ran twice', async () => {
    expect(handoffRowsBeforePurge).toBe(1);
    const [codes] = await t.db.sql<{ left: number; challenges: number }[]>`
      select count(*)::int as left, (select count(*)::int from auth_webauthn_challenges) as challenges
      from auth_handoff_codes`;
    expect(codes).toEqual({ left: 0, challenges: 0 });
    const purged = await t.db.sql<{ tick: string; handoff: number; challenges: number }[]>`
      select tick, (outcome->>'handoffCodes')::int as handoff, (outcome->>'passkeyChallenges')::int as challenges
      from schedule_runs where schedule = 'identity.expired-secrets'
        and ((outcome->>'handoffCodes')::int > 0 or (outcome->>'passkeyChallenges')::int > 0)`;
    // Issued at 09:00 (06:00 UTC), valid 120 s and 300 s: the 20:30 look's hourly tick removed both.
    expect(purged).toEqual([{ tick: `${HANDOFF_DAY}T17`, handoff: 1, challenges: 1 }]);
    const [failed] = await t.db.sql<{ bad: number }[]>`
      select count(*)::int as bad from schedule_runs where attempts <> 1 or completed_at is null or error is not null`;
    expect(failed!.bad).toBe(0);
    const daily = await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from schedule_runs where schedule = 'training.support-review'`;
    expect(daily[0]!.n).toBe(calendar.length);
  });
});
