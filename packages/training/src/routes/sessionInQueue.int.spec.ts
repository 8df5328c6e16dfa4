import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { accepted, blueprint, decide, draft, operationalBlueprints } from '@qiraa/sessions/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { importTrainingPack, optionKey } from '../testing';

/**
 * An online session reaches the child's practice queue (docs/sessions.md, "In the child's queue"): seen from
 * the child (the queue over HTTP) and from the teacher (the session detail).
 */
const { t, w } = useTestWorld();
let child: Client;
let teacher: Client;
let bpA: string;
let bpB: string;

const NEXT = '/api/practice/queues/current/next-item';
const SUBMIT = '/api/practice/queues/current/submit-response';
const STATE = '/api/practice/queues/current/state';

beforeAll(async () => {
  await importTrainingPack(t.db.sql);
  child = client(t.app, w.a.studentToken);
  teacher = client(t.app, w.a.teacherToken);
  await decide(t.db.sql, w.a.studentId, 'sb_word_building', 'developing');
  const made = await operationalBlueprints(client(t.app, w.superToken), [
    blueprint({ externalId: 'queue-wb' }),
    blueprint({ externalId: 'queue-other', theme: 'sea' }),
  ]);
  [bpA, bpB] = made.ids as [string, string];
}, 120_000);

/** A session of the blueprint accepted online and distributed; its items for the world's child. */
async function distributed(blueprintId: string): Promise<{ id: string; items: string[] }> {
  const id = await draft(teacher, w.a.classId, blueprintId);
  await t.db.sql`delete from ses_session_creations`;
  await accepted(teacher, id, { deliveryMode: 'online' });
  const res = await teacher.post(`/api/sessions/${id}/distribute-online`, {});
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().online.queued).toContain(w.a.studentId);
  const [slot] = await t.db.sql<{ item_ids: string[] }[]>`
    select item_ids from ses_session_students where session_id = ${id} and student_id = ${w.a.studentId}`;
  return { id, items: slot!.item_ids };
}

/** Answers every remaining item of the session through the queue (the first one wrong unless `allRight`). */
async function finish(sessionId: string, allRight = false) {
  for (let i = 0; i < 20; i++) {
    const next = await child.get(NEXT);
    const body = next.json();
    if (body.sessionId !== sessionId) return;
    const itemId = body.served.item.id as string;
    const res = await child.post(SUBMIT, {
      itemId,
      selectedOptionKey: await optionKey(t.db.sql, itemId, allRight || i > 0),
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  throw new Error('the session never left the queue');
}

describe('online session in the practice queue', () => {
  let session: { id: string; items: string[] };

  it('after distribute-online the queue serves the session first: phase session, sessionId, its first item', async () => {
    session = await distributed(bpA);
    expect(session.items.length).toBeGreaterThan(0);
    const state = await child.get(STATE);
    expect(state.statusCode, state.body).toBe(200);
    expect(state.json()).toMatchObject({
      sessionId: session.id,
      training: { phase: 'session', progress: { answered: 0, planned: session.items.length } },
    });
    const next = await child.get(NEXT);
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json()).toMatchObject({
      trainingSessionId: null,
      sessionId: session.id,
      served: { item: { id: session.items[0] }, attempt: 1 },
      training: { phase: 'session' },
    });
    // No training day opened while the session is served.
    const days = await t.db.sql`select 1 from trn_days where student_id = ${w.a.studentId}`;
    expect(days).toHaveLength(0);
  });

  it('an answer names the phase and the session; a wrong one gets the explanation; a repeat is 409', async () => {
    const itemId = session.items[0]!;
    const wrong = await child.post(SUBMIT, { itemId, selectedOptionKey: await optionKey(t.db.sql, itemId, false) });
    expect(wrong.statusCode, wrong.body).toBe(200);
    expect(wrong.json()).toMatchObject({
      trainingSessionId: null,
      sessionId: session.id,
      correct: false,
      attempt: 1,
      hint: null,
      explanation: { textAr: expect.any(String) },
      next: 'next_item',
      training: { phase: 'session', progress: { answered: 1, planned: session.items.length } },
    });
    const again = await child.post(SUBMIT, { itemId, selectedOptionKey: await optionKey(t.db.sql, itemId, true) });
    expect(again.statusCode).toBe(409);
    expect(again.json().reason).toBe('item_not_current');
  });

  it('parallel submits of one item record it once', async () => {
    const itemId = session.items[1]!;
    const key = await optionKey(t.db.sql, itemId, true);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => child.post(SUBMIT, { itemId, selectedOptionKey: key })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409]);
    const rows = await t.db.sql`
      select 1 from ses_slot_answers where session_id = ${session.id} and item_id = ${itemId}`;
    expect(rows).toHaveLength(1);
  });

  it('the teacher sees the progress; completing it stores every answer on the session stream', async () => {
    const mid = (await teacher.get(`/api/sessions/${session.id}`)).json();
    const me = mid.recipients.find((r: { studentId: number }) => r.studentId === w.a.studentId);
    expect(me.progress).toEqual({ answered: 2, total: session.items.length, completedAt: null });

    await finish(session.id, true);
    const done = (await teacher.get(`/api/sessions/${session.id}`)).json();
    const mine = done.recipients.find((r: { studentId: number }) => r.studentId === w.a.studentId);
    expect(mine.progress).toMatchObject({ answered: session.items.length, total: session.items.length });
    expect(mine.progress.completedAt).toEqual(expect.any(String));

    const events = await t.runtime.store.readStream(`session-${session.id}`);
    expect(events.filter((e) => e.type === 'SessionAnswerRecorded')).toHaveLength(session.items.length);
    const completed = events.filter((e) => e.type === 'SessionSlotCompleted');
    expect(completed).toHaveLength(1);
    expect(completed[0]!.data).toMatchObject({
      studentId: w.a.studentId,
      total: session.items.length,
      correct: session.items.length - 1,
      bySubSkill: [{ subSkillId: 'sb_word_building', answered: session.items.length }],
    });
  });

  it('after the session the levelled training follows (phase practice, a training day)', async () => {
    const next = await child.get(NEXT);
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json()).toMatchObject({ sessionId: null, training: { phase: 'practice' } });
    expect(next.json().trainingSessionId).toEqual(expect.any(String));
  });

  it('a session made again from the same blueprint supersedes the earlier one, which leaves the queue', async () => {
    const older = await distributed(bpA);
    const newer = await distributed(bpA);
    expect((await child.get(NEXT)).json().sessionId).toBe(newer.id);
    await finish(newer.id);
    const after = (await child.get(NEXT)).json();
    expect(after.sessionId).toBeNull();
    expect(after.training.phase).not.toBe('session');
    const olderView = (await teacher.get(`/api/sessions/${older.id}`)).json();
    expect(
      olderView.recipients.find((r: { studentId: number }) => r.studentId === w.a.studentId).progress.completedAt,
    ).toBeNull();
  });

  it('a session no longer previewed or delivered leaves the queue (the state guard)', async () => {
    const other = await distributed(bpB);
    expect((await child.get(STATE)).json().sessionId).toBe(other.id);
    // Only a draft is cancelled through the API (and a draft has no slot); the guard is on the state itself.
    await t.db.sql`update ses_sessions set status = 'cancelled' where id = ${other.id}`;
    expect((await child.get(STATE)).json().sessionId).toBeNull();
    expect((await child.get(NEXT)).json().sessionId).toBeNull();
  });
});
