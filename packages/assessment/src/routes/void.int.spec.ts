import { randomUUID } from 'node:crypto';
import { client, useTestWorld } from '@qiraa/app/testing';
import { auditEvents, auditStreamId } from '@qiraa/audit';
import { beforeAll, describe, expect, it } from 'vitest';
import { ATTEMPT_VOIDED, ORAL_READING_STARTED, SITTING_STOPPED, streams } from '../events';
import { type AttemptPlace, readWordList, startOralReading, startSitting } from '../testing/attempts';

const { t, w } = useTestWorld();
const deps = () => ({ sql: t.runtime.sql, store: t.runtime.store });
let place: AttemptPlace;
const voidUrl = (classId: string) => `/api/teacher/classes/${classId}/taqyeem/void`;
const teacherVoid = (body: object, classId = w.a.classId, token = w.a.teacherToken) =>
  client(t.app, token).post(voidUrl(classId), body);

beforeAll(() => {
  place = { organizationId: w.a.id, schoolId: w.a.schoolId, classId: w.a.classId, studentId: w.a.studentId };
});

/** Everything a refusal must leave alone: the attempt's stream, organization A's audit stream, the void ids. */
async function writes(streamId: string) {
  const [seq] = await t.runtime.sql<{ last_value: string; is_called: boolean }[]>`
    select last_value, is_called from asm_void_id_seq`;
  return {
    stream: (await t.runtime.store.readStream(streamId)).length,
    audit: auditEvents(await t.runtime.store.readStream(auditStreamId(w.a.id))).filter((e) => {
      const data = e.data;
      return data.eventType === 'measurement_void';
    }).length,
    seq: `${seq!.last_value}/${seq!.is_called}`,
  };
}

describe('POST /api/teacher/classes/{classId}/taqyeem/void', () => {
  it('voids an open digital sitting: stops it, voids it, audits it', async () => {
    const sitting = await startSitting(deps(), place);
    await sitting.answer(1);
    const res = await teacherVoid({
      kind: 'digital_sitting',
      targetId: sitting.attemptId,
      reason: 'technical_interruption',
    });
    expect(res.statusCode).toBe(201);
    const record = res.json();
    expect(record).toEqual({
      id: expect.stringMatching(/^void:\d+$/),
      academicYear: '2026-2027',
      evidenceWindow: 'BOY',
      endedActiveSitting: true,
      voidKind: 'digital_sitting',
      voidReason: 'technical_interruption',
    });
    const events = await t.runtime.store.readStream(streams.sitting(sitting.attemptId));
    expect(events.map((e) => e.type).slice(-2)).toEqual([SITTING_STOPPED, ATTEMPT_VOIDED]);
    expect(events[2]!.data).toMatchObject({ reason: 'voided' });
    expect(events[3]!.data).toMatchObject({
      attemptId: sitting.attemptId,
      voidId: Number(record.id.slice(5)),
      reason: 'technical_interruption',
      actorUserId: w.a.teacherId,
      endedActiveSitting: true,
    });
    const [row] = await t.runtime.sql<{ status: string; void_id: bigint; end_reason: string }[]>`
      select status, void_id, end_reason from asm_attempts where attempt_id = ${sitting.attemptId}`;
    expect(row).toEqual({ status: 'stopped', void_id: BigInt(record.id.slice(5)), end_reason: 'voided' });

    // The audit record, read back through the admin audit log (list and by id).
    await t.runtime.projector.catchUp();
    const admin = client(t.app, w.a.adminToken);
    const list = await admin.get('/api/admin/audit-log?eventType=measurement_void');
    expect(list.statusCode).toBe(200);
    const entry = list.json().items.find((e: { id: string }) => e.id === record.id);
    const expected = {
      id: record.id,
      eventType: 'measurement_void',
      organizationId: w.a.id,
      actorUserId: w.a.teacherId,
      targetStudentId: w.a.studentId,
      targetClassId: w.a.classId,
      detail: {
        voidKind: 'digital_sitting',
        voidReason: 'technical_interruption',
        attemptId: sitting.attemptId,
        academicYear: '2026-2027',
        evidenceWindow: 'BOY',
        endedActiveSitting: true,
      },
      occurredAt: expect.any(String),
    };
    expect(entry).toEqual(expected);
    const one = await admin.get(`/api/admin/audit-log/${record.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(expected);
    expect((await client(t.app, w.b.adminToken).get(`/api/admin/audit-log/${record.id}`)).statusCode).toBe(404);
  });

  it('voids a done word-list read without ending anything, and an open oral reading by the void alone', async () => {
    const read = await readWordList(deps(), place, 'oral_pseudowords');
    const res = await teacherVoid({ kind: 'oral_word_list', targetId: read.attemptId, reason: 'other' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ endedActiveSitting: false, voidKind: 'oral_word_list', voidReason: 'other' });

    const reading = await startOralReading(deps(), place);
    const voided = await teacherVoid({ kind: 'oral_text', targetId: reading.attemptId, reason: 'student_not_ready' });
    expect(voided.statusCode).toBe(201);
    expect(voided.json()).toMatchObject({ endedActiveSitting: true, voidKind: 'oral_text' });
    const events = await t.runtime.store.readStream(streams.oralReading(reading.attemptId));
    expect(events.map((e) => e.type)).toEqual([ORAL_READING_STARTED, ATTEMPT_VOIDED]);
  });

  it('voids a completed sitting without a stop', async () => {
    const sitting = await startSitting(deps(), place);
    await sitting.complete();
    const res = await teacherVoid({
      kind: 'digital_sitting',
      targetId: sitting.attemptId,
      reason: 'started_by_mistake',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().endedActiveSitting).toBe(false);
    const events = await t.runtime.store.readStream(streams.sitting(sitting.attemptId));
    expect(events.map((e) => e.type)).toEqual(['SittingStarted', 'SittingCompleted', ATTEMPT_VOIDED]);
  });

  it('answers 409 already_voided for a second void, writing nothing', async () => {
    const read = await readWordList(deps(), place);
    const body = { kind: 'oral_word_list', targetId: read.attemptId, reason: 'other' };
    expect((await teacherVoid(body)).statusCode).toBe(201);
    const before = await writes(streams.wordListRead(read.attemptId));
    const again = await teacherVoid({ ...body, reason: 'student_not_ready' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CONFLICT', reason: 'already_voided' });
    expect(await writes(streams.wordListRead(read.attemptId))).toEqual(before);
  });

  it('lets exactly one of parallel voids win', async () => {
    const sitting = await startSitting(deps(), place);
    const body = { kind: 'digital_sitting', targetId: sitting.attemptId, reason: 'technical_interruption' };
    const answers = await Promise.all(Array.from({ length: 8 }, () => teacherVoid(body)));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((a) => a.statusCode === 409)) expect(r.json().reason).toBe('already_voided');
    const events = await t.runtime.store.readStream(streams.sitting(sitting.attemptId));
    expect(events.map((e) => e.type)).toEqual(['SittingStarted', SITTING_STOPPED, ATTEMPT_VOIDED]);
    const audit = auditEvents(await t.runtime.store.readStream(auditStreamId(w.a.id))).filter(
      (e) => e.data.detail?.attemptId === sitting.attemptId,
    );
    expect(audit).toHaveLength(1);
  });

  it('answers 422 not_a_window_sitting for another kind or another academic year, writing nothing', async () => {
    const sitting = await startSitting(deps(), place);
    const before = await writes(streams.sitting(sitting.attemptId));
    const wrongKind = await teacherVoid({ kind: 'oral_text', targetId: sitting.attemptId, reason: 'other' });
    expect(wrongKind.statusCode).toBe(422);
    expect(wrongKind.json()).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'not_a_window_sitting' });
    expect(await writes(streams.sitting(sitting.attemptId))).toEqual(before);

    const old = await startSitting(deps(), { ...place, academicYear: '2025-2026' });
    const lastYear = await teacherVoid({ kind: 'digital_sitting', targetId: old.attemptId, reason: 'other' });
    expect(lastYear.statusCode).toBe(422);
    expect(lastYear.json().reason).toBe('not_a_window_sitting');
  });

  it('answers 404 for attempts out of scope, writing nothing', async () => {
    const otherClass = await startSitting(deps(), { ...place, classId: w.a.otherClassId });
    const otherOrg = await startSitting(deps(), {
      organizationId: w.b.id,
      schoolId: w.b.schoolId,
      classId: w.b.classId,
      studentId: w.b.studentId,
    });
    const before = await writes(streams.sitting(otherClass.attemptId));
    for (const targetId of [otherClass.attemptId, otherOrg.attemptId, randomUUID(), 'not-a-uuid']) {
      const res = await teacherVoid({ kind: 'digital_sitting', targetId, reason: 'other' });
      expect(res.statusCode, targetId).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    expect(await writes(streams.sitting(otherClass.attemptId))).toEqual(before);
  });

  it('is the holding teacher’s: 404 for a class not held or out of the organization, 403 for other personas', async () => {
    const sitting = await startSitting(deps(), place);
    const body = { kind: 'digital_sitting', targetId: sitting.attemptId, reason: 'other' };
    expect((await teacherVoid(body, w.a.otherClassId)).statusCode).toBe(404);
    expect((await teacherVoid(body, w.a.classId, w.a.otherTeacherToken)).statusCode).toBe(404);
    expect((await teacherVoid(body, w.b.classId)).statusCode).toBe(404);
    expect((await teacherVoid(body, 'cls_AAAAAAAAAAAA')).statusCode).toBe(404);
    for (const token of [w.a.adminToken, w.a.principalToken, w.a.managerToken, w.a.parentToken, w.a.studentToken]) {
      expect((await teacherVoid(body, w.a.classId, token)).statusCode).toBe(403);
      expect((await teacherVoid(body, w.b.classId, token)).statusCode).toBe(404);
    }
    expect((await teacherVoid(body, w.a.classId, w.superToken)).statusCode).toBe(403);
    const [row] = await t.runtime.sql`select void_id from asm_attempts where attempt_id = ${sitting.attemptId}`;
    expect(row!.void_id).toBeNull();
  });

  it('takes exactly { kind, targetId, reason }: another key is 400, a free-text reason 422', async () => {
    const sitting = await startSitting(deps(), place);
    const body = { kind: 'digital_sitting', targetId: sitting.attemptId, reason: 'other' };
    const extra = await teacherVoid({ ...body, note: 'the child was tired' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().code).toBe('UNKNOWN_FIELD');
    const freeText = await teacherVoid({ ...body, reason: 'the child was tired' });
    expect(freeText.statusCode).toBe(422);
    const missing = await teacherVoid({ kind: 'digital_sitting', targetId: sitting.attemptId });
    expect(missing.statusCode).toBe(422);
    expect((await teacherVoid({ ...body, kind: 'training_day' })).statusCode).toBe(422);
    const [row] = await t.runtime.sql`select void_id from asm_attempts where attempt_id = ${sitting.attemptId}`;
    expect(row!.void_id).toBeNull();
  });
});
