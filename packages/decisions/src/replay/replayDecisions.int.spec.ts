import { randomUUID } from 'node:crypto';
import { client, useTestWorld } from '@qiraa/app/testing';
import { ATTEMPT_VOIDED, streams as evidenceStreams, recordEvidence, SITTING_COMPLETED } from '@qiraa/assessment';
import { startSitting } from '@qiraa/assessment/testing';
import { inTransaction } from '@qiraa/db';
import { rebuildProjection } from '@qiraa/projections';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { recomputeSkillStatus } from '../commands/recomputeSkillStatus';
import { skillStatusProjection } from '../projections/skillStatusProjection';
import { skillStatusReactor } from '../projections/skillStatusReactor';
import { replayDecisions } from './replayDecisions';

const { t, w } = useTestWorld();

async function newStudent(): Promise<number> {
  const res = await client(t.app, w.superToken).post(`/api/classes/${w.a.classId}/students`, { fullNameAr: 'سلمى' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().studentId;
}

const place = (studentId: number) => ({
  organizationId: w.a.id,
  schoolId: w.a.schoolId,
  classId: w.a.classId,
  studentId,
});

/** Evidence appended the way a command appends it, with the event id fixed so it can be sent again. */
const send = (streamId: string, eventId: string, type: string, data: object) =>
  inTransaction(t.db.sql, (uow) => recordEvidence(uow, t.runtime.store, streamId, [{ eventId, type, data }]));

/** A student with two fixture sittings of four answers each, decided inline: strong, ADR-01. */
async function decidedStudent(): Promise<number> {
  const id = await newStudent();
  for (let i = 0; i < 2; i++) {
    const s = await startSitting(t.runtime, place(id));
    for (const p of [0, 1, 2, 3]) await s.answer(p);
    await s.complete();
  }
  await recomputeSkillStatus(t.runtime, id);
  return id;
}

const replay = (token: string, studentId: number) =>
  client(t.app, token).post('/api/admin/decisions/replay', { studentId });

describe('POST /api/admin/decisions/replay', () => {
  let clean: number;
  beforeAll(async () => {
    clean = await decidedStudent();
  }, 60_000);

  it('a clean student has no drift: derived equals stored on every key', async () => {
    const res = await replay(w.superToken, clean);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ studentId: clean, hasDrift: false });
    expect(body.keys).toHaveLength(1);
    expect(body.keys[0]).toMatchObject({
      academicYear: '2026-2027',
      window: 'BOY',
      subSkillId: 'fixture_sub_skill',
      drift: [],
      derived: { status: 'strong', adrRuleId: 'ADR-01', ruleSetVersion: 'v1' },
    });
    expect(body.keys[0].derived).toEqual(body.keys[0].stored);
    // A student with nothing decided: no keys, no drift.
    const none = await replay(w.a.adminToken, w.a.studentId);
    expect(none.json()).toEqual({
      studentId: w.a.studentId,
      keys: [],
      monitoring: { trends: [], alerts: [] },
      profiles: { profiles: [], recommendations: [] },
      hasDrift: false,
    });
  });

  it('a row changed behind the service shows drift on exactly that key and field; a rebuild removes it', async () => {
    const other = await decidedStudent();
    await t.db.sql`
      update dec_skill_status set status = 'beginning' where student_id = ${clean} and sub_skill_id = 'fixture_sub_skill'`;
    const body = (await replay(w.a.adminToken, clean)).json();
    expect(body.hasDrift).toBe(true);
    expect(body.keys.map((k: { drift: string[] }) => k.drift)).toEqual([['status']]);
    expect(body.keys[0]).toMatchObject({ derived: { status: 'strong' }, stored: { status: 'beginning' } });
    expect((await replay(w.a.adminToken, other)).json().hasDrift).toBe(false);

    // A deleted row: the key is derived but not stored (every field drifts).
    await t.db.sql`delete from dec_skill_status where student_id = ${other}`;
    const missing = (await replay(w.superToken, other)).json();
    expect(missing.keys).toHaveLength(1);
    expect(missing.keys[0]).toMatchObject({ stored: null, derived: { status: 'strong' } });
    expect(missing.keys[0].drift).toContain('status');

    await rebuildProjection({ sql: t.db.sql, store: t.runtime.store }, skillStatusProjection);
    expect((await replay(w.superToken, clean)).json().hasDrift).toBe(false);
    expect((await replay(w.superToken, other)).json().hasDrift).toBe(false);
  });

  it('tenant rule and permission: 404 for another organization or an unknown student, 403 without back office', async () => {
    expect((await replay(w.b.adminToken, clean)).statusCode).toBe(404);
    expect((await replay(w.a.adminToken, 99_999_999)).statusCode).toBe(404);
    expect((await replay(w.a.teacherToken, clean)).statusCode).toBe(403);
    const bad = await client(t.app, w.superToken).post('/api/admin/decisions/replay', { studentId: 'x' });
    expect(bad.statusCode).toBe(422);
  });
});

type Step = { sitting: number; resend: boolean; inline: boolean };

describe('property: any arrival order of evidence, voids and re-sent events', () => {
  it('the stored decisions (inline and reactor paths) equal the replay', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Per sitting: how many of its questions are answered, and whether it is voided afterwards.
        fc.array(fc.record({ answers: fc.integer({ min: 0, max: 4 }), voided: fc.boolean() }), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.infiniteStream(fc.record({ resend: fc.boolean(), inline: fc.boolean() })),
        fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
        async (sittings, flags, order) => {
          const studentId = await newStudent();
          const started = await Promise.all(sittings.map(() => startSitting(t.runtime, place(studentId))));
          // Each sitting's remaining events in its own order (answers, completion, void), interleaved across
          // sittings by `order`: a stream's events arrive in order, streams arrive in any order.
          const queues = sittings.map((s, i) => {
            const a = started[i]!;
            const stream = evidenceStreams.sitting(a.attemptId);
            const steps: (() => Promise<unknown>)[] = [];
            for (let p = 0; p < s.answers; p++) steps.push(() => a.answer(p));
            const answers = steps.length;
            const completed = randomUUID();
            const completion = { attemptId: a.attemptId, at: new Date().toISOString(), result: { raw: 0, max: 10 } };
            steps.push(() => send(stream, completed, SITTING_COMPLETED, completion));
            if (s.voided) {
              const voidEvent = randomUUID();
              const voidData = {
                attemptId: a.attemptId,
                kind: 'digital_sitting',
                voidId: 900_000 + i,
                reason: 'started_by_mistake',
                actorUserId: 1,
                endedActiveSitting: false,
                at: new Date().toISOString(),
              };
              steps.push(() => send(stream, voidEvent, ATTEMPT_VOIDED, voidData));
              steps.push(() => send(stream, completed, SITTING_COMPLETED, completion));
            }
            // An answer fixture mints a new id on each call: only the fixed-id events are re-sent.
            return steps.map((run, n) => ({ run, resend: n < answers ? null : run }));
          });
          const it = flags[Symbol.iterator]();
          let k = 0;
          while (queues.some((q) => q.length > 0)) {
            const live = queues.filter((q) => q.length > 0);
            const q = live[(order[k++ % order.length] ?? 0) % live.length]!;
            const step = q.shift()!;
            const flag = it.next().value as Omit<Step, 'sitting'>;
            await step.run();
            if (flag.resend && step.resend) await step.resend(); // the same event again (a duplicate id writes nothing)
            if (flag.inline) await recomputeSkillStatus(t.runtime, studentId);
          }
          await t.runtime.projector.catchUp(skillStatusReactor.name);
          await t.runtime.projector.catchUp(skillStatusProjection.name);
          const report = await replayDecisions(t.runtime, studentId);
          expect(report.keys.filter((key) => key.drift.length > 0)).toEqual([]);
          expect(report.keys.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 8 },
    );
  }, 60_000);
});
