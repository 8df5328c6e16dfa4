import { client, useTestWorld } from '@qiraa/app/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { schoolDayOf } from '../engine/schoolDay';

const { t, w } = useTestWorld();
const DAY = 86_400_000;
const tomorrow = () => schoolDayOf(new Date(Date.now() + DAY), 'Asia/Amman');
const today = () => schoolDayOf(new Date(), 'Asia/Amman');
let keyCounter = 0;
const newKey = () => `key-${process.pid}-${++keyCounter}-${Date.now()}`;

/** POST /api/training/sends with a key. */
const send = (token: string, body: object, key = newKey()) =>
  client(t.app, token).post('/api/training/sends', body, { 'x-idempotency-key': key });
const refusal = async (res: Awaited<ReturnType<typeof send>>) => [res.statusCode, res.json().code, res.json().reason];
const sendsCount = async () => (await t.db.sql<{ n: number }[]>`select count(*)::int as n from trn_sends`)[0]!.n;

beforeAll(async () => {
  // One operational training item for grade 2, familiar word reading: what a send can serve.
  await t.db.sql`
    insert into content_items (id, organization_id, external_id, version, content_role, content_purpose, grade,
      sub_skill_id, item_pattern, training_level, stem_ar, options, correct_option_key, status, content_hash)
    values ('itm_send_fixture1', null, 'send-fixture-1', 1, 'target_training', 'training', 2, 'fw_common_words',
      'word_match', 1, 'اختر الكلمة', '[{"key":"a","textAr":"باب"},{"key":"b","textAr":"بيت"}]', 'a', 'operational', 'h1')`;
}, 60_000);

describe('teacher sends (assign-training)', () => {
  it('a teacher sends to their class; the same body and key answer the first success and change nothing', async () => {
    const body = { classId: w.a.classId, skillId: 'familiar_word_reading', untilDate: tomorrow() };
    const key = newKey();
    const first = await send(w.a.teacherToken, body, key);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      teacherUserId: w.a.teacherId,
      sentByUserId: w.a.teacherId,
      classId: w.a.classId,
      groupId: null,
      skillId: 'familiar_word_reading',
      studentIds: expect.arrayContaining([w.a.studentId]),
    });
    const before = await sendsCount();
    const again = await send(
      w.a.teacherToken,
      { untilDate: body.untilDate, skillId: body.skillId, classId: body.classId },
      key,
    );
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await sendsCount()).toBe(before);
    const reused = await send(w.a.teacherToken, { ...body, skillId: 'letter_sounds' }, key);
    expect(await refusal(reused)).toEqual([422, 'VALIDATION_ERROR', 'idempotency_key_reused']);
  });

  it('20 identical requests in parallel: one effect, twenty identical answers', async () => {
    const body = { classId: w.a.classId, untilDate: tomorrow() };
    const key = newKey();
    const before = await sendsCount();
    const answers = await Promise.all(Array.from({ length: 20 }, () => send(w.a.teacherToken, body, key)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((r) => r.json().sendId)).size).toBe(1);
    expect(await sendsCount()).toBe(before + 1);
    const events = await t.db
      .sql`select count(*)::int as n from es_events where event_type = 'TrainingSent' and data->>'sendId' = ${answers[0]!.json().sendId}`;
    expect(events[0]!.n).toBe(1);
  }, 60_000);

  it('the window refusals: already over, until time required, too short', async () => {
    const past = schoolDayOf(new Date(Date.now() - 2 * DAY), 'Asia/Amman');
    expect(await refusal(await send(w.a.teacherToken, { classId: w.a.classId, untilDate: past }))).toEqual([
      422,
      'VALIDATION_ERROR',
      'window_already_over',
    ]);
    expect(await refusal(await send(w.a.teacherToken, { classId: w.a.classId, untilDate: today() }))).toEqual([
      422,
      'VALIDATION_ERROR',
      'until_time_required',
    ]);
    // Ten minutes from now in Amman (UTC+3, no daylight saving): too short.
    const soon = new Date(Date.now() + 10 * 60_000);
    const ammanSoon = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Amman',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(soon);
    const res = await send(w.a.teacherToken, {
      classId: w.a.classId,
      untilDate: schoolDayOf(soon, 'Asia/Amman'),
      untilTime: ammanSoon,
    });
    expect((await refusal(res))[2]).toMatch(/^(window_too_short|window_already_over|until_time_required)$/);
    if (schoolDayOf(soon, 'Asia/Amman') === today()) expect((await refusal(res))[2]).toBe('window_too_short');
  });

  it('staff send on behalf: required, not a teacher, teacher not in scope; then sent for the teacher', async () => {
    const admin = w.a.adminToken;
    const body = { classId: w.a.classId, untilDate: tomorrow() };
    expect(await refusal(await send(admin, body))).toEqual([422, 'VALIDATION_ERROR', 'on_behalf_required']);
    const parent = await send(admin, { ...body, onBehalfOfTeacherUserId: w.a.parentId });
    expect(await refusal(parent)).toEqual([422, 'VALIDATION_ERROR', 'on_behalf_not_a_teacher']);
    const me = await client(t.app, w.a.otherTeacherToken).get('/api/auth/me');
    const other = await send(admin, { ...body, onBehalfOfTeacherUserId: me.json().id });
    expect(await refusal(other)).toEqual([403, 'PERMISSION_DENIED', 'on_behalf_teacher_not_in_scope']);
    expect((await send(admin, { ...body, onBehalfOfTeacherUserId: 999_999 })).statusCode).toBe(404);
    const ok = await send(admin, { ...body, onBehalfOfTeacherUserId: w.a.teacherId });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ teacherUserId: w.a.teacherId, sentByUserId: expect.any(Number) });
    expect(ok.json().sentByUserId).not.toBe(w.a.teacherId);
  });

  it('tenant and role refusals; 409 empty_target and send_closed; 503 TRAINING_UNAVAILABLE; missing key 422', async () => {
    const body = { classId: w.a.classId, untilDate: tomorrow() };
    expect((await send(w.a.teacherToken, { ...body, classId: w.b.classId })).statusCode).toBe(404);
    expect(await refusal(await send(w.a.teacherToken, { ...body, classId: w.a.otherClassId }))).toEqual([
      403,
      'NOT_CLASS_TEACHER',
      undefined,
    ]);
    expect((await send(w.a.parentToken, body)).statusCode).toBe(403);
    expect((await send(w.a.studentToken, body)).statusCode).toBe(403);
    expect((await send(w.a.teacherToken, { untilDate: tomorrow() })).statusCode).toBe(422);
    const noKey = await client(t.app, w.a.teacherToken).post('/api/training/sends', body);
    expect(noKey.statusCode).toBe(422);

    // A group with no active child left: empty_target.
    const s = (
      await client(t.app, w.superToken).post(`/api/classes/${w.a.classId}/students`, { fullNameAr: 'ليلى' })
    ).json().studentId;
    const group = await client(t.app, w.a.teacherToken).post('/api/training/groups', {
      nameAr: 'مجموعة',
      studentIds: [s],
    });
    await t.db.sql`update class_students set active = false where student_user_id = ${s}`;
    const empty = await send(w.a.teacherToken, { groupId: group.json().groupId, untilDate: tomorrow() });
    expect(await refusal(empty)).toEqual([409, 'CONFLICT', 'empty_target']);

    // A class of a past academic year: send_closed.
    const old = await client(t.app, w.superToken).post('/api/classes', {
      schoolId: w.a.schoolId,
      name: 'قديم',
      grade: 2,
      academicYear: '2020-2021',
    });
    expect(old.statusCode, old.body).toBe(201);
    await client(t.app, w.superToken).post(`/api/classes/${old.json().id}/teachers`, { teacherUserId: w.a.teacherId });
    await client(t.app, w.superToken).post(`/api/classes/${old.json().id}/students`, { fullNameAr: 'هدى' });
    expect(await refusal(await send(w.a.teacherToken, { classId: old.json().id, untilDate: tomorrow() }))).toEqual([
      409,
      'CONFLICT',
      'send_closed',
    ]);

    // No operational training content for the skill: 503.
    const none = await send(w.a.teacherToken, { ...body, skillId: 'root_awareness' });
    expect([none.statusCode, none.json().code]).toEqual([503, 'TRAINING_UNAVAILABLE']);
    expect(await sendsCount()).toBeGreaterThan(0);
  });

  it('429 RATE_LIMITED past 30 sends in 15 minutes, with retryAfter; a replay is still answered', async () => {
    // Fill the caller's window directly (the count is of kept answers), then one more send is refused.
    const before = (
      await t.db.sql<
        { n: number }[]
      >`select count(*)::int as n from trn_send_requests where caller_user_id = ${w.a.teacherId}`
    )[0]!.n;
    const replayKey = newKey();
    const body = { classId: w.a.classId, untilDate: tomorrow() };
    expect((await send(w.a.teacherToken, body, replayKey)).statusCode).toBe(201);
    await t.db.sql`
      insert into trn_send_requests (caller_user_id, idempotency_key, body_hash, status, response)
      select ${w.a.teacherId}, 'filler-' || g, 'x', 201, '{}'::jsonb from generate_series(1, ${Math.max(0, 30 - before - 1)}) g`;
    const limited = await send(w.a.teacherToken, body);
    expect([limited.statusCode, limited.json().code]).toEqual([429, 'RATE_LIMITED']);
    expect(limited.json().retryAfter).toBeGreaterThan(0);
    expect((await send(w.a.teacherToken, body, replayKey)).statusCode).toBe(201);
  });
});
