import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { trainingGroupsOf } from '../queries/trainingGroups';
import { importTrainingPack, optionKey } from '../testing';

const { t, w } = useTestWorld();
let student: Client;
let teacher: Client;
const seen: unknown[] = [];

/** Every successful student response is kept and scanned at the end for what a child must never be shown. */
async function asStudent(method: 'get' | 'post', url: string, body?: unknown) {
  const res = method === 'get' ? await student.get(url) : await student.post(url, body);
  if (res.statusCode === 200) seen.push(res.json());
  return res;
}

beforeAll(async () => {
  await importTrainingPack(t.db.sql);
  student = client(t.app, w.a.studentToken);
  teacher = client(t.app, w.a.teacherToken);
}, 120_000);

describe('practice queue (student token)', () => {
  it('levels before any training: none, and the academic year named all the same', async () => {
    const levels = await teacher.get(`/api/training/students/${w.a.studentId}/levels`);
    expect(levels.statusCode, levels.body).toBe(200);
    const today = new Date();
    const year = today.getUTCMonth() >= 7 ? today.getUTCFullYear() : today.getUTCFullYear() - 1;
    expect(levels.json()).toEqual({ studentId: w.a.studentId, academicYear: `${year}-${year + 1}`, levels: [] });
  });

  it('state before the first item: no day', async () => {
    const res = await asStudent('get', '/api/practice/queues/current/state');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ trainingSessionId: null, training: { phase: 'done' } });
  });

  it('next-item opens the day, serves the same item until answered; levels start from experience_type', async () => {
    const first = await asStudent('get', '/api/practice/queues/current/next-item');
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json();
    expect(body.served.step).toEqual({ kind: 'target', startsBridge: false, strategyPromptAr: null });
    expect(body.training.phase).toBe('practice');
    expect(Object.keys(body.served.item).sort()).toEqual(['id', 'options', 'passageId', 'stemAr', 'version']);
    const again = await asStudent('get', '/api/practice/queues/current/next-item');
    expect(again.json().served.item.id).toBe(body.served.item.id);
    expect(again.json().trainingSessionId).toBe(body.trainingSessionId);

    const levels = await teacher.get(`/api/training/students/${w.a.studentId}/levels`);
    expect(levels.statusCode, levels.body).toBe(200);
    expect(levels.json().academicYear).toBe('2026-2027');
    const rows = levels.json().levels as { skillId: string; startedFrom: string; level: { number: number } }[];
    expect(rows.map((r) => r.skillId)).toEqual([
      'letter_sounds',
      'syllable_blending',
      'phoneme_awareness',
      'spelling_patterns',
    ]);
    expect(rows.every((r) => r.startedFrom === 'experience_type' && r.level.number === 1)).toBe(true);
  });

  it('a wrong first try gets a hint and a retry; a wrong second try the explanation; a stale item is 409', async () => {
    const next = (await asStudent('get', '/api/practice/queues/current/next-item')).json();
    const itemId = next.served.item.id as string;
    const wrong = await optionKey(t.db.sql, itemId, false);
    const r1 = await asStudent('post', '/api/practice/queues/current/submit-response', {
      itemId,
      selectedOptionKey: wrong,
    });
    expect(r1.statusCode, r1.body).toBe(200);
    expect(r1.json()).toMatchObject({ correct: false, attempt: 1, next: 'retry', explanation: null });
    expect(['item', 'light_hint', 'clearer_hint', 'generic']).toContain(r1.json().hint.kind);
    const r2 = await asStudent('post', '/api/practice/queues/current/submit-response', {
      itemId,
      selectedOptionKey: wrong,
    });
    expect(r2.json()).toMatchObject({ correct: false, attempt: 2, next: 'next_item', hint: null });
    expect(r2.json().explanation.textAr.length).toBeGreaterThan(0);
    const stale = await asStudent('post', '/api/practice/queues/current/submit-response', {
      itemId,
      selectedOptionKey: wrong,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().reason).toBe('item_not_current');
  });

  it('bad input: unknown option 422, extra key 400, nothing written', async () => {
    const next = (await asStudent('get', '/api/practice/queues/current/next-item')).json();
    const itemId = next.served.item.id as string;
    const bad = await asStudent('post', '/api/practice/queues/current/submit-response', {
      itemId,
      selectedOptionKey: 'zz',
    });
    expect(bad.statusCode).toBe(422);
    const extra = await asStudent('post', '/api/practice/queues/current/submit-response', {
      itemId,
      selectedOptionKey: 'a',
      level: 3,
    });
    expect(extra.statusCode).toBe(400);
    const still = (await asStudent('get', '/api/practice/queues/current/next-item')).json();
    expect(still.served.item.id).toBe(itemId);
    expect(still.served.attempt).toBe(1);
  });

  it('parallel submits of one answer record it once', async () => {
    const next = (await asStudent('get', '/api/practice/queues/current/next-item')).json();
    const itemId = next.served.item.id as string;
    const key = await optionKey(t.db.sql, itemId, true);
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        student.post('/api/practice/queues/current/submit-response', { itemId, selectedOptionKey: key }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const [row] = await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from trn_answers where student_id = ${w.a.studentId} and item_id = ${itemId}`;
    expect(row?.n).toBe(1);
  });

  it('answers the whole day to the closing question: phase exit, then done; next-item says day_ended', async () => {
    let phaseSeen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const next = (await asStudent('get', '/api/practice/queues/current/next-item')).json();
      if (!next.served) break;
      phaseSeen.add(next.training.phase);
      const itemId = next.served.item.id as string;
      const r = await asStudent('post', '/api/practice/queues/current/submit-response', {
        itemId,
        selectedOptionKey: await optionKey(t.db.sql, itemId, true),
      });
      expect(r.statusCode, r.body).toBe(200);
    }
    expect([...phaseSeen].sort()).toEqual(['exit', 'practice']);
    const end = (await asStudent('get', '/api/practice/queues/current/next-item')).json();
    expect(end).toMatchObject({ served: null, reason: 'day_ended', training: { phase: 'done', endReason: 'done' } });
    const state = (await asStudent('get', '/api/practice/queues/current/state')).json();
    expect(state.training).toMatchObject({ phase: 'done', exit: { planned: 1, done: 1 } });
    phaseSeen = new Set();
  });

  it('other personas are refused the queue', async () => {
    expect((await teacher.get('/api/practice/queues/current/next-item')).statusCode).toBe(403);
    expect((await client(t.app, w.a.parentToken).get('/api/practice/queues/current/state')).statusCode).toBe(403);
  });

  it('no student payload carries a level, level name, item pattern, rule code, support skill or rank class', async () => {
    const text = JSON.stringify(seen);
    const names = await t.db.sql<{ name_ar: string }[]>`select name_ar from content_training_levels`;
    const patterns = await t.db.sql<{ code: string }[]>`select code from content_item_patterns`;
    for (const key of [
      '"level',
      'levelName',
      'itemPattern',
      'ruleCode',
      'ruleId',
      'supportSkill',
      'rankClass',
      'trainingLevel',
    ]) {
      expect(text).not.toContain(key);
    }
    expect(text).not.toMatch(/\b(BR|TLM|TLS)-\d/);
    for (const n of names) expect(text).not.toContain(n.name_ar);
    for (const p of patterns) expect(text).not.toContain(`"${p.code}"`);
    expect(seen.length).toBeGreaterThan(20);
  });
});

describe('staff views', () => {
  it('training days: list and detail for the teacher; reach rules', async () => {
    const list = await teacher.get(`/api/practice/students/${w.a.studentId}/training-sessions`);
    expect(list.statusCode, list.body).toBe(200);
    const [day] = list.json().sessions;
    expect(day).toMatchObject({ leveled: true, ended: true, endReason: 'done', exitDone: true });
    expect(day.targets[0]).toMatchObject({ levelNumber: 1, levelNameAr: 'البداية' });
    const detail = await teacher.get(`/api/practice/students/${w.a.studentId}/training-sessions/${day.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).toMatchObject({ id: day.id, ended: true, exit: { planned: 1, answered: 1 } });
    expect(detail.json().targets[0].secondTries).toBe(1);
    const groups = await trainingGroupsOf(t.db.sql, day.id);
    expect(groups?.[0]).toMatchObject({ targetSkillId: 'letter_sounds', levelNameAr: 'البداية' });
    expect(groups?.[0]?.groups.map((g) => [g.role, g.answered])).toEqual([
      ['ordinary', 3],
      ['retry', 1],
      ['exit', 1],
    ]);
    // The session report opens the day as training_day with the same groups; another kind or child is 404.
    const report = await teacher.get(`/api/reports/students/${w.a.studentId}/sessions/training_day/${day.id}`);
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json()).toMatchObject({ kind: 'training_day', sessionId: day.id, ended: true, measures: null });
    expect(report.json().trainingGroups).toEqual(groups);
    expect((await teacher.get(`/api/reports/students/${w.a.studentId}/sessions/oral_text/${day.id}`)).statusCode).toBe(
      404,
    );
    expect(
      (await client(t.app, w.superToken).get(`/api/reports/students/${w.b.studentId}/sessions/training_day/${day.id}`))
        .statusCode,
    ).toBe(404);

    const other = client(t.app, w.a.otherTeacherToken);
    expect((await other.get(`/api/practice/students/${w.a.studentId}/training-sessions`)).statusCode).toBe(403);
    expect(
      (await client(t.app, w.b.teacherToken).get(`/api/practice/students/${w.a.studentId}/training-sessions`))
        .statusCode,
    ).toBe(404);
    expect((await teacher.get(`/api/practice/students/${w.a.studentId}/training-sessions/not-a-uuid`)).statusCode).toBe(
      422,
    );
    const unknown = await teacher.get(
      `/api/practice/students/${w.a.studentId}/training-sessions/00000000-0000-4000-8000-000000000000`,
    );
    expect(unknown.statusCode).toBe(404);
    expect(
      (await client(t.app, w.a.managerToken).get(`/api/practice/students/${w.a.studentId}/training-sessions`))
        .statusCode,
    ).toBe(200);
  });

  it('a support group’s owner who does not teach the child reaches its training days; archiving the group ends it', async () => {
    const admin = client(t.app, w.a.adminToken);
    const owner = client(t.app, w.a.otherTeacherToken);
    const list = `/api/practice/students/${w.a.studentId}/training-sessions`;
    const [other] = await t.db.sql<{ id: number }[]>`
      select teacher_user_id::int as id from class_teachers where class_id = ${w.a.otherClassId}`;
    const otherTeacherId = other!.id;
    expect((await owner.get(list)).statusCode).toBe(403);
    // Groups hold only children the owner teaches: assigned to the child's class for the group, then removed.
    const teachers = `/api/classes/${w.a.classId}/teachers`;
    expect((await admin.post(teachers, { teacherUserId: otherTeacherId })).statusCode).toBeLessThan(300);
    const group = await owner.post('/api/training/groups', { nameAr: 'مجموعة الدعم', studentIds: [w.a.studentId] });
    expect(group.statusCode, group.body).toBe(201);
    expect((await admin.delete(`${teachers}/${otherTeacherId}`)).statusCode).toBeLessThan(300);

    const reached = await owner.get(list);
    expect(reached.statusCode, reached.body).toBe(200);
    expect(reached.json()).toEqual((await teacher.get(list)).json());
    const [day] = reached.json().sessions;
    expect((await owner.get(`${list}/${day.id}`)).statusCode).toBe(200);
    expect((await owner.get(`/api/training/students/${w.a.studentId}/levels`)).statusCode).toBe(200);

    expect((await owner.delete(`/api/training/groups/${group.json().groupId}`)).statusCode).toBe(204);
    expect((await owner.get(list)).statusCode).toBe(403);
  });

  it('levels: 404 for an unreachable child, 403 without the permission', async () => {
    expect(
      (await client(t.app, w.a.otherTeacherToken).get(`/api/training/students/${w.a.studentId}/levels`)).statusCode,
    ).toBe(404);
    expect(
      (await client(t.app, w.a.managerToken).get(`/api/training/students/${w.a.studentId}/levels`)).statusCode,
    ).toBe(403);
    expect((await client(t.app, w.a.adminToken).get(`/api/training/students/${w.a.studentId}/levels`)).statusCode).toBe(
      200,
    );
    expect((await client(t.app, w.b.adminToken).get(`/api/training/students/${w.a.studentId}/levels`)).statusCode).toBe(
      404,
    );
  });
});
