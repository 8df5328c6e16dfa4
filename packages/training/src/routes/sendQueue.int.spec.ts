import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { isOfType } from '@qiraa/eventstore';
import { manualClock } from '@qiraa/kernel';
import { beforeAll, describe, expect, it } from 'vitest';
import { TRAINING_DAY_OPENED, trainingEvents } from '../events';
import { importTrainingPack, optionKey } from '../testing';

/**
 * A teacher's send changes what the child practises (docs/training.md, "A teacher's send"): the child's queue
 * over HTTP serves the sent skill first in the window and the levelled plan after it; the teacher reads the
 * send's delivery and progress. The app's clock starts at the real time (the send's window and stamp read it)
 * and is moved past the window by hand.
 */
const clock = manualClock(new Date());
const { t, w } = useTestWorld({ clock });
let child: Client;
let teacher: Client;
let sendId: string;
let sentAnswers = 0;

const NEXT = '/api/practice/queues/current/next-item';
const SUBMIT = '/api/practice/queues/current/submit-response';
/** Not among the first three skills the levelled plan takes for this child: only a send brings it first. */
const SENT = 'spelling_patterns';

const dayIn = (days: number) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Amman',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(clock.now().getTime() + days * 86_400_000));

const skillOf = async (itemId: string) =>
  (
    await t.db.sql<{ skill_id: string }[]>`
      select s.skill_id from content_items i join content_sub_skills s on s.id = i.sub_skill_id where i.id = ${itemId}`
  )[0]!.skill_id;

async function answerCurrent(correct: boolean) {
  const next = (await child.get(NEXT)).json();
  const itemId = next.served.item.id as string;
  clock.advance(5_000);
  const res = await child.post(SUBMIT, { itemId, selectedOptionKey: await optionKey(t.db.sql, itemId, correct) });
  expect(res.statusCode, res.body).toBe(200);
  return { itemId, skillId: await skillOf(itemId), body: res.json() };
}

beforeAll(async () => {
  await importTrainingPack(t.db.sql);
  child = client(t.app, w.a.studentToken);
  teacher = client(t.app, w.a.teacherToken);
}, 120_000);

describe('a teacher send in the child’s queue', () => {
  it('within the window the queue serves the sent skill first', async () => {
    // The clock starts at the real time again (building the world took a while); the send is stamped by it.
    clock.set(new Date());
    const sent = await teacher.post(
      '/api/training/sends',
      { classId: w.a.classId, skillId: SENT, untilDate: dayIn(1) },
      { 'x-idempotency-key': 'send-queue-1' },
    );
    expect(sent.statusCode, sent.body).toBe(201);
    sendId = sent.json().sendId;
    clock.advance(60_000);
    const first = (await child.get(NEXT)).json();
    expect(first.training.phase).toBe('practice');
    expect(await skillOf(first.served.item.id)).toBe(SENT);
    // The day's plan starts with the sent skill (the levelled plan would not take it today at all) ...
    const opened = trainingEvents(await t.runtime.store.readStream(`trainingday-${first.trainingSessionId}`)).find(
      isOfType(TRAINING_DAY_OPENED),
    );
    const exercises = opened!.data.exercises;
    expect(exercises[0]!.skillId).toBe(SENT);
    // ... and the whole first exercise is served (first try right) before anything else.
    const answered = [];
    for (const _ of exercises[0]!.itemIds) answered.push(await answerCurrent(true));
    expect(answered.map((a) => a.itemId)).toEqual(exercises[0]!.itemIds);
    expect(new Set(answered.map((a) => a.skillId))).toEqual(new Set([SENT]));
    sentAnswers = answered.length;
  });

  it('the teacher reads the send’s delivery and progress', async () => {
    const res = await teacher.get(`/api/training/sends/${sendId}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.send).toMatchObject({ sendId, skillId: SENT, classId: w.a.classId });
    expect(body.state).toBe('open');
    const mine = body.recipients.find((r: { studentId: number }) => r.studentId === w.a.studentId);
    expect(mine).toMatchObject({ reached: true, answered: sentAnswers, correct: sentAnswers });
    expect(mine.firstAnsweredAt).toEqual(expect.any(String));
    expect(body.summary).toMatchObject({ reached: 1, answered: sentAnswers });
    expect((await client(t.app, w.a.otherTeacherToken).get(`/api/training/sends/${sendId}`)).statusCode).toBe(403);
    expect((await client(t.app, w.b.teacherToken).get(`/api/training/sends/${sendId}`)).statusCode).toBe(404);
    expect((await child.get(`/api/training/sends/${sendId}`)).statusCode).toBe(403);
    expect((await teacher.get('/api/training/sends/not-a-uuid')).statusCode).toBe(422);
  });

  it('after the window the levelled plan again: a new day does not start with the sent skill', async () => {
    clock.advance(3 * 86_400_000);
    const next = (await child.get(NEXT)).json();
    expect(next.served, JSON.stringify(next)).not.toBeNull();
    expect(await skillOf(next.served.item.id)).not.toBe(SENT);
    const res = await teacher.get(`/api/training/sends/${sendId}`);
    expect(res.json().state).toBe('over');
    // The earlier day was left open and ended window_closed when the child came back.
    const days = await t.db.sql<{ end_reason: string | null }[]>`
      select end_reason from trn_days where student_id = ${w.a.studentId} order by opened_at`;
    expect(days.map((d) => d.end_reason)).toEqual(['window_closed', null]);
  });
  it('a send arriving while a day is open without its skill adds one exercise of it, served first', async () => {
    const before = (await child.get(NEXT)).json();
    const dayId = before.trainingSessionId as string;
    expect(await skillOf(before.served.item.id)).not.toBe(SENT);
    const sent = await teacher.post(
      '/api/training/sends',
      { classId: w.a.classId, skillId: SENT, untilDate: dayIn(1) },
      { 'x-idempotency-key': 'send-queue-2' },
    );
    expect(sent.statusCode, sent.body).toBe(201);
    const next = (await child.get(NEXT)).json();
    expect(next.trainingSessionId).toBe(dayId);
    expect(await skillOf(next.served.item.id)).toBe(SENT);
    // Asked again: the same item, and the exercise was added once.
    expect((await child.get(NEXT)).json().served.item.id).toBe(next.served.item.id);
    const added = (await t.runtime.store.readStream(`trainingday-${dayId}`)).filter(
      (e) => e.type === 'SendExerciseAdded',
    );
    expect(added).toHaveLength(1);
    expect(added[0]!.data).toMatchObject({ sendId: sent.json().sendId, exercise: { skillId: SENT } });
    const { skillId } = await answerCurrent(true);
    expect(skillId).toBe(SENT);
  });
});
