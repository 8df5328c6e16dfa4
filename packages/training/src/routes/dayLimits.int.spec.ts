import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { eventsOfType } from '@qiraa/eventstore';
import { manualClock } from '@qiraa/kernel';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRACTICE_ANSWER_RECORDED, trainingEvents } from '../events';
import { importTrainingPack, optionKey } from '../testing';

/**
 * The day's two limits through the child's queue over HTTP, with time moved by a manual clock (the app's
 * `ContextDeps.clock`): nothing to serve (`no_eligible_item`) and the 17-minute active-time cap.
 */
const clock = manualClock(new Date('2026-11-01T07:00:00Z')); // a Sunday, 10:00 in Amman
const { t, w } = useTestWorld({ clock });
let child: Client;
let teacher: Client;

const NEXT = '/api/practice/queues/current/next-item';
const SUBMIT = '/api/practice/queues/current/submit-response';

beforeAll(() => {
  child = client(t.app, w.a.studentToken);
  teacher = client(t.app, w.a.teacherToken);
});

describe('no_eligible_item', () => {
  it('with no item any level can serve: served null, reason no_eligible_item, nothing written', async () => {
    const res = await child.get(NEXT);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      trainingSessionId: null,
      sessionId: null,
      served: null,
      reason: 'no_eligible_item',
      training: { phase: 'done', endReason: null },
    });
    expect(await t.db.sql`select 1 from trn_days where student_id = ${w.a.studentId}`).toHaveLength(0);
    expect(await t.db.sql`select 1 from trn_levels where student_id = ${w.a.studentId}`).toHaveLength(0);
    const events = await t.db.sql`
      select 1 from es_events where stream_id like 'trainingday-%' or stream_id like 'traininglevel-%'`;
    expect(events).toHaveLength(0);
    const state = await child.get('/api/practice/queues/current/state');
    expect(state.json()).toMatchObject({ trainingSessionId: null, training: { phase: 'done' } });
  });

  it('asked again once content exists, the day opens', async () => {
    await importTrainingPack(t.db.sql);
    const res = await child.get(NEXT);
    expect(res.json()).toMatchObject({ reason: null, training: { phase: 'practice' } });
    expect(res.json().trainingSessionId).toEqual(expect.any(String));
  });
});

describe('the 17-minute cap', () => {
  it('ends the day `cap` mid-practice at 1020 s of active time; idle gaps count 60 s at most', async () => {
    const answer = async () => {
      const next = (await child.get(NEXT)).json();
      expect(next.served, JSON.stringify(next)).not.toBeNull();
      const itemId = next.served.item.id as string;
      const res = await child.post(SUBMIT, { itemId, selectedOptionKey: await optionKey(t.db.sql, itemId, false) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    // Ten answers five minutes apart: the child walked away each time, 60 s counted each (600 s, not 3000 s).
    for (let i = 0; i < 10; i++) {
      clock.advance(5 * 60_000);
      const body = await answer();
      expect(body.training.endReason).toBeNull();
    }
    // Then one a minute: 660, 720, ... 960 s (still open), 1020 s ends it.
    for (let i = 0; i < 6; i++) {
      clock.advance(60_000);
      const body = await answer();
      expect(body.training.endReason, `answer ${11 + i}`).toBeNull();
    }
    clock.advance(60_000);
    const last = await answer();
    expect(last).toMatchObject({
      correct: false,
      next: 'done',
      hint: null,
      explanation: { textAr: expect.any(String) },
      training: { phase: 'done', endReason: 'cap' },
    });
    // Mid-practice: the plan was not finished.
    expect(last.training.progress.answered).toBeLessThan(last.training.progress.planned);

    const after = await child.get(NEXT);
    expect(after.json()).toMatchObject({ served: null, reason: 'day_ended', training: { endReason: 'cap' } });
    const dayId = last.trainingSessionId as string;
    const day = await teacher.get(`/api/practice/students/${w.a.studentId}/training-sessions/${dayId}`);
    expect(day.statusCode, day.body).toBe(200);
    expect(day.json()).toMatchObject({ ended: true, endReason: 'cap' });
    const events = await t.runtime.store.readStream(`trainingday-${dayId}`);
    const ended = events.filter((e) => e.type === 'TrainingDayEnded');
    expect(ended).toHaveLength(1);
    expect(ended[0]!.data).toMatchObject({ endReason: 'cap' });
    const answers = eventsOfType(trainingEvents(events), PRACTICE_ANSWER_RECORDED).map((e) => e.data);
    expect(answers.map((a) => a.activeSeconds).at(-1)).toBe(1020);
    expect(answers[9]!.activeSeconds).toBe(600);
  });

  it('a submit after the cap finds no open day (409 no_open_training_day)', async () => {
    clock.advance(60_000);
    const [item] = await t.db.sql<{ id: string }[]>`
      select id from content_items where content_role = 'target_training' and status = 'operational' limit 1`;
    const res = await child.post(SUBMIT, {
      itemId: item!.id,
      selectedOptionKey: await optionKey(t.db.sql, item!.id, true),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().reason).toBe('no_open_training_day');
  });
});
