import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { importDemoScreeningForms } from '@qiraa/assessment/testing';
import { decisionRewardsReaction, replayDecisions } from '@qiraa/decisions';
import { replayReport } from '@qiraa/gamification';
import { addDays, localInstant, manualClock } from '@qiraa/kernel';
import { pdfPagePng } from '@qiraa/pdf-kit/testing';
import { accepted, blueprint, draft, operationalBlueprints } from '@qiraa/sessions/testing';
import { importTrainingPack, optionKey } from '@qiraa/training/testing';
import { unzipSync } from 'fflate';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './testing/runCli';

/**
 * Issue 22, "Done when": one child walked through the literacy chain in one app with the injected clock moved
 * between steps, each effect read from the side of the person it reaches (the child's queue, the teacher's
 * inbox and pages, the parent's page): evidence → decision (and its reward, a reaction) → an online session in
 * the child's queue → a printed sheet's QR code followed by the child → a teacher send that changes what the
 * child practises → a training alert in the teacher's inbox → 21+ days later the support-review suggestion,
 * once → a void that takes the reward back → both replays without drift, in-process and as
 * `qiraa … replay --all`. The world's child (grade 2, linked to the world's parent) is the child. After every
 * step the child's decisions and ledger replay without drift (the functions `replay` runs, in-process); the
 * last step runs both commands over every student.
 */
const TZ = 'Asia/Amman';
const YEAR = '2026-2027';
const START = '2026-10-04'; // a Sunday (the weekend is Friday and Saturday)
const clock = manualClock(localInstant(START, 9, TZ));
const { t, w } = useTestWorld({ clock });
const at = (day: string, hour: number) => localInstant(day, hour, TZ);
const isSchoolDay = (day: string) => ![5, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());
const nextSchoolDay = (day: string) => {
  let d = addDays(day, 1);
  while (!isSchoolDay(d)) d = addDays(d, 1);
  return d;
};

const NEXT = '/api/practice/queues/current/next-item';
const SUBMIT = '/api/practice/queues/current/submit-response';
const STATE = '/api/practice/queues/current/state';
/** A step of many requests and looks (days of practice, weeks of evenings): well over the default when loaded. */
const STEP_TIMEOUT = 120_000;
/** A skill the levelled plan does not take first for this child (tests/sendQueue): only a send brings it first. */
const SENT = 'spelling_patterns';

let child: Client;
let teacher: Client;
let admin: Client;
let parent: Client;
let passageId: string;
let today = START;

/** Projections, then reactions (rewards, notifiers): what a person reads once the runners caught up. */
async function settled() {
  await t.runtime.projector.catchUp();
  await t.runtime.reactor.catchUp();
}

/** The scheduler's look at the clock's now (the in-process timer's job), every due tick once. */
async function look() {
  const runs = await t.runtime.scheduler.runDue();
  expect(runs.filter((r) => r.error !== null)).toEqual([]);
  await settled();
  return runs;
}

async function oralReading(words: number): Promise<string> {
  const started = await teacher.post('/api/orf/assessments', { studentId: w.a.studentId, passageId });
  expect(started.statusCode, started.body).toBe(201);
  const id = started.json().id as string;
  clock.advance(60_000);
  const stopped = await teacher.post(`/api/orf/assessments/${id}/stop`, {
    lastWordIndex: words - 1,
    elapsedSeconds: 60,
  });
  expect(stopped.statusCode, stopped.body).toBe(200);
  return id;
}

const skillOf = async (itemId: string) =>
  (
    await t.db.sql<{ skill_id: string }[]>`
      select s.skill_id from content_items i join content_sub_skills s on s.id = i.sub_skill_id where i.id = ${itemId}`
  )[0]!.skill_id;

/** The child answers what the queue serves (5 s apart) until the queue has nothing more for the phase. */
async function practise(phase: 'session' | 'practice', right: boolean): Promise<string[]> {
  const skills: string[] = [];
  for (let guard = 0; guard < 120; guard++) {
    const next = await child.get(NEXT);
    expect(next.statusCode, next.body).toBe(200);
    const body = next.json();
    if (!body.served || body.training?.phase !== phase) return skills;
    const itemId = body.served.item.id as string;
    if (phase === 'practice') skills.push(await skillOf(itemId));
    clock.advance(5_000);
    const res = await child.post(SUBMIT, { itemId, selectedOptionKey: await optionKey(t.db.sql, itemId, right) });
    expect(res.statusCode, res.body).toBe(200);
  }
  throw new Error(`the ${phase} phase never ended`);
}

const teacherInbox = async () => {
  const res = await teacher.get('/api/notifications?limit=100');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as { kind: string; payload: Record<string, unknown> }[];
};
const profile = async () => {
  const res = await admin.get(`/api/students/${w.a.studentId}/gamification/profile`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const connectedText = async () => {
  const res = await teacher.get(`/api/sse/students/${w.a.studentId}/skill-status?window=BOY&academicYear=${YEAR}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().rows as { subSkillId: string; status: string | null }[]).find(
    (r) => r.subSkillId === 'or_connected_text',
  );
};

beforeAll(async () => {
  await importDemoScreeningForms(t.db.sql);
  await importTrainingPack(t.db.sql);
  // BOY open around the clock's start (the calendar in the organization's zone), MOY and EOY later.
  await t.db.sql`delete from asm_window_calendars where organization_id = ${w.a.id} and academic_year = ${YEAR}`;
  for (const [window, from, to] of [
    ['BOY', '2026-09-27', '2026-10-29'],
    ['MOY', '2027-01-03', '2027-01-14'],
    ['EOY', '2027-05-02', '2027-05-13'],
  ] as const) {
    await t.db.sql`
      insert into asm_window_calendars (organization_id, academic_year, evidence_window, starts_on, ends_on)
      values (${w.a.id}, ${YEAR}, ${window}, ${from}, ${to})`;
  }
  [{ id: passageId }] = (await t.db.sql`
    select id from content_passages where external_id = 'g2-boy-screen-text1'`) as unknown as [{ id: string }];
  child = client(t.app, w.a.studentToken);
  teacher = client(t.app, w.a.teacherToken);
  admin = client(t.app, w.a.adminToken);
  parent = client(t.app, w.a.parentToken);
}, 180_000);

describe('one child through the literacy chain, the clock moved between steps', { timeout: STEP_TIMEOUT }, () => {
  let higherRead: string;

  // What each step wrote folds back to what the read models hold (the check `replay --all` makes per student).
  afterEach(async () => {
    await settled();
    expect((await replayDecisions(t.runtime, w.a.studentId)).hasDrift, 'decisions drift').toBe(false);
    expect((await replayReport(t.runtime, w.a.studentId, new Date())).hasDrift, 'gamification drift').toBe(false);
  });

  it('evidence → decision: two readings decide connected text; the rise is credited (a reaction) once', async () => {
    clock.set(at(today, 9));
    await oralReading(20);
    clock.set(at(today, 10));
    higherRead = await oralReading(30);
    // The teacher reads the decision at once (inline recompute), decided at the clock's time.
    expect((await connectedText())?.status).toEqual(expect.any(String));
    const [decided] = await t.db.sql<{ decided_at: Date }[]>`
      select decided_at from dec_skill_status
      where student_id = ${w.a.studentId} and sub_skill_id = 'or_connected_text' and evidence_window = 'BOY'`;
    expect(decided!.decided_at.getTime()).toBe(at(today, 10).getTime() + 60_000);
    await settled();
    expect(await profile()).toMatchObject({ xpBalance: 40, badges: [{ code: 'first_step', status: 'active' }] });
    // The mastery event names the decision event that earned it.
    const [credit] = await t.db.sql<{ cause: string; engine: string }[]>`
      select e.metadata->>'causationId' as cause, e.data->>'engineEventId' as engine from es_events e
      where e.event_type = 'MasteryEventRecorded' and e.data->>'studentId' = ${String(w.a.studentId)}`;
    expect(credit!.cause).toBe(credit!.engine);
    const [decision] = await t.db.sql`select event_type from es_events where event_id::text = ${credit!.cause}`;
    expect(decision).toMatchObject({ event_type: 'BandProgressionDecided' });
  });

  it('an online session distributed by the teacher is what the child’s queue serves first, to completion', async () => {
    // The session's sub-skill has no decision for this child (an oral reading decides connected text only): its
    // items are chosen without a status, as for any child not yet screened in it.
    const made = await operationalBlueprints(client(t.app, w.superToken), [blueprint({ externalId: 'chain-wb' })]);
    const sessionId = await draft(teacher, w.a.classId, made.ids[0]!);
    await accepted(teacher, sessionId, { deliveryMode: 'online' });
    const distributed = await teacher.post(`/api/sessions/${sessionId}/distribute-online`, {});
    expect(distributed.statusCode, distributed.body).toBe(200);

    const state = (await child.get(STATE)).json();
    expect(state).toMatchObject({ sessionId, training: { phase: 'session' } });
    await practise('session', true);
    const detail = (await teacher.get(`/api/sessions/${sessionId}`)).json();
    const mine = detail.recipients.find((r: { studentId: number }) => r.studentId === w.a.studentId);
    expect(mine.progress.completedAt).toEqual(expect.any(String));
    expect(mine.progress.answered).toBe(mine.progress.total);
  });

  it('a printed sheet’s QR code, followed with the child’s own sign-in, opens that session in the child’s queue', async () => {
    const made = await operationalBlueprints(client(t.app, w.superToken), [blueprint({ externalId: 'chain-printed' })]);
    const sessionId = await draft(teacher, w.a.classId, made.ids[0]!);
    await accepted(teacher, sessionId, { deliveryMode: 'printable' });
    const zip = await teacher.post(`/api/sessions/${sessionId}/generate-pdfs`);
    expect(zip.statusCode, zip.body).toBe(200);
    const pdf = unzipSync(new Uint8Array(zip.rawPayload))[`student-${w.a.studentId}.pdf`]!;
    // The code is read from the rendered page's pixels, as a tablet's camera would.
    const png = PNG.sync.read(await pdfPagePng(pdf, 1, 150));
    const qr = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(qr?.data).toMatch(/\/s\/sst_[A-Za-z0-9]{14}$/);
    const opened = await child.get(new URL(qr!.data).pathname);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ sessionId, queued: true });
    expect((await child.get(STATE)).json()).toMatchObject({ sessionId, training: { phase: 'session' } });
    await practise('session', true);
    const detail = (await teacher.get(`/api/sessions/${sessionId}`)).json();
    const mine = detail.recipients.find((r: { studentId: number }) => r.studentId === w.a.studentId);
    expect(mine.linkOpenedAt).toEqual(expect.any(String));
    expect(mine.progress.completedAt).toEqual(expect.any(String));
  });

  it('a teacher send changes the practice: the sent skill first; then days all wrong raise a training alert in the teacher’s inbox', async () => {
    clock.set(at(today, 11));
    const sent = await teacher.post(
      '/api/training/sends',
      { classId: w.a.classId, skillId: SENT, untilDate: today, untilTime: '23:00' },
      { 'x-idempotency-key': 'chain-send-1' },
    );
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().createdAt).toBe(at(today, 11).toISOString());
    const first = await practise('practice', false);
    expect(first[0]).toBe(SENT);
    await settled();
    const progress = (await teacher.get(`/api/training/sends/${sent.json().sendId}`)).json();
    expect(progress.recipients.find((r: { studentId: number }) => r.studentId === w.a.studentId)).toMatchObject({
      reached: true,
      correct: 0,
    });

    // Every answer wrong at level 1 (no lower level to move to), school day after school day, until TAL-01.
    let alerted = (await teacherInbox()).filter((n) => n.kind === 'training_no_progress');
    for (let day = 0; alerted.length === 0 && day < 8; day++) {
      today = nextSchoolDay(today);
      clock.set(at(today, 9));
      const skills = await practise('practice', false);
      expect(skills.length).toBeGreaterThan(0);
      // The send's window is over: the teacher reads it so, and the day's plan has no send exercise added.
      expect((await teacher.get(`/api/training/sends/${sent.json().sendId}`)).json().state).toBe('over');
      clock.set(at(today, 20));
      await look();
      alerted = (await teacherInbox()).filter((n) => n.kind === 'training_no_progress');
    }
    expect(alerted.length).toBeGreaterThan(0);
    expect(String(alerted[0]!.payload.studentId)).toBe(String(w.a.studentId));
  });

  it('the child stops practising; 21+ days later the support review reaches the teacher once', async () => {
    const reviews = async () => (await teacherInbox()).filter((n) => n.kind === 'training_support_review_suggested');
    expect(await reviews()).toEqual([]);
    // Five weeks without practice; the scheduler looks each evening (a missed evening is caught up at the next look).
    for (let i = 0; i < 5 * 7; i++) {
      today = addDays(today, 1);
      clock.set(at(today, 21));
      await look();
    }
    const once = await reviews();
    expect(once.length).toBeGreaterThan(0);
    const alertIds = once.map((n) => n.payload.alertId);
    expect(new Set(alertIds).size).toBe(alertIds.length);
    // Later looks raise nothing again.
    today = addDays(today, 1);
    clock.set(at(today, 21));
    await look();
    expect((await reviews()).length).toBe(once.length);
  });

  it('a void of the higher reading takes the XP and the badge back; the parent’s page shows phrases only', async () => {
    const page = async () => {
      const children = await parent.get('/api/parent/children');
      expect(children.statusCode, children.body).toBe(200);
      const childId = children.json()[0].childId as string;
      const growth = await parent.get(`/api/parent/children/${childId}/growth`);
      expect(growth.statusCode, growth.body).toBe(200);
      return growth.body;
    };
    const before = await page();
    // BOY closed on its calendar meanwhile: the void is a teacher's act on evidence of a closed window too.
    const voided = await teacher.post(`/api/teacher/classes/${w.a.classId}/taqyeem/void`, {
      kind: 'oral_text',
      targetId: higherRead,
      reason: 'started_by_mistake',
    });
    expect(voided.statusCode, voided.body).toBe(201);
    await settled();
    expect(await profile()).toMatchObject({ xpBalance: 0, badges: [{ code: 'first_step', status: 'rescinded' }] });
    expect((await connectedText())?.status).toEqual(expect.any(String));
    // The void took a band rise back, not the status: the remaining reading still decides "developing", so the
    // parent reads the same page as before (what the parent sees follows the decided phrase, never the XP).
    const after = await page();
    expect(after).toBe(before);
    // The parent's page carries no digit (no id, no score) in what it shows.
    expect(after.replace(/"childId":"[^"]*"/g, '')).not.toMatch(/[0-9٠-٩۰-۹]/);
    // The rewards reaction delivered everything again changes nothing (at-least-once, idempotent).
    await t.db.sql`update reaction_checkpoints set checkpoint = null where name = ${decisionRewardsReaction.name}`;
    await t.runtime.reactor.catchUp(decisionRewardsReaction.name);
    expect(await profile()).toMatchObject({ xpBalance: 0 });
  });

  it('replay --all of decisions and gamification finds no drift', async () => {
    const students = (
      await t.db.sql<{ id: string }[]>`select id::text from users where primary_persona = 'STUDENT' order by id`
    ).map((r) => Number(r.id));
    for (const id of students) {
      const decisions = await replayDecisions(t.runtime, id);
      expect(decisions.hasDrift, `decisions of student ${id}`).toBe(false);
      const ledger = await replayReport(t.runtime, id, new Date());
      expect(ledger.hasDrift, `gamification of student ${id}`).toBe(false);
    }
    // The operators' commands on the same database: exit 0 is "no drift" (docs/operations.md).
    for (const context of ['decisions', 'gamification']) {
      const run = await runCli([context, 'replay', '--all'], { DATABASE_URL: t.db.url });
      expect(run.code, `qiraa ${context} replay --all: ${run.stdout}${run.stderr}`).toBe(0);
    }
  }, 180_000);
});
