import { client, useTestWorld } from '@qiraa/app/testing';
import { auditStreamId } from '@qiraa/audit';
import type { RecordedEvent } from '@qiraa/eventstore';
import { beforeAll, describe, expect, it } from 'vitest';
import { ATTEMPT_VOIDED, ORAL_READING_STARTED, streams } from '../events';
import { importDemoFiles, setWindows } from '../testing/oralTestKit';

const { t, w } = useTestWorld();
let passageId: string;

beforeAll(async () => {
  await importDemoFiles(t.db.sql, ['g2-boy-screening-form.json']);
  [{ id: passageId }] = (await t.db.sql`
    select id from content_passages where external_id = 'g2-boy-screen-text1'`) as unknown as [{ id: string }];
  await setWindows(t.db.sql, w.a.id, '2026-2027', 'BOY');
}, 120_000);

/** What every event a request writes carries: who, in which organization, and the request that caused it. */
const requestMetadata = (event: RecordedEvent | undefined) =>
  expect(event?.metadata).toMatchObject({
    actorUserId: w.a.teacherId,
    organizationId: w.a.id,
    correlationId: expect.any(String),
    causationId: expect.any(String),
  });

describe('the metadata handleCommand stamps on assessment’s commands', () => {
  it('a started oral reading, its void and the void’s audit entry name the teacher, the organization and the request', async () => {
    const teacher = client(t.app, w.a.teacherToken);
    const started = await teacher.post('/api/orf/assessments', { studentId: w.a.studentId, passageId });
    expect(started.statusCode, started.body).toBe(201);
    const id = started.json().id as string;
    const voided = await teacher.post(`/api/teacher/classes/${w.a.classId}/taqyeem/void`, {
      kind: 'oral_text',
      targetId: id,
      reason: 'other',
    });
    expect(voided.statusCode, voided.body).toBe(201);

    const events = await t.runtime.store.readStream(streams.oralReading(id));
    requestMetadata(events.find((e) => e.type === ORAL_READING_STARTED));
    const voidEvent = events.find((e) => e.type === ATTEMPT_VOIDED);
    requestMetadata(voidEvent);
    const audit = (await t.runtime.store.readStream(auditStreamId(w.a.id))).find(
      (e) => (e.data as { auditId?: string }).auditId === voided.json().id,
    );
    requestMetadata(audit);
    // One request: the void and its audit entry share its correlation.
    expect(audit?.metadata.correlationId).toBe(voidEvent?.metadata.correlationId);
  });
});
