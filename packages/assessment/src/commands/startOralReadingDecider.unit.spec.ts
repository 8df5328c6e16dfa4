import { DeciderSpecification } from '@qiraa/command-kit/testing';
import type { ReadingPassage } from '@qiraa/content';
import { deterministicEventId } from '@qiraa/eventstore';
import { ApiError } from '@qiraa/http-kit';
import { describe, expect, it } from 'vitest';
import { ORAL_READING_STARTED } from '../events';
import { ORF_DURATION_SECONDS } from '../events/orfEvents';
import { type StartOralReading, startOralReadingDecider } from './startOralReading';

const spec = DeciderSpecification.for(startOralReadingDecider);
const attemptId = 'a1b2c3d4-0000-4000-8000-000000000004';
const at = new Date('2026-10-05T09:00:00Z');
const place = { organizationId: 'org_1', schoolId: 's1', classId: 'c1', grade: 2, academicYear: '2026-2027' };
const passage = {
  id: 'p1',
  version: 3,
  grade: 2,
  wordCount: 40,
  organizationId: null,
  status: 'operational',
} as unknown as ReadingPassage;
const start = (over: Partial<StartOralReading> = {}): StartOralReading => ({
  attemptId,
  studentId: 7,
  teacherId: 40,
  at,
  passage,
  place,
  window: { open: 'BOY', today: '2026-10-05' },
  ...over,
});
const refused = (status: number, reason?: string, message?: string) => (error: unknown) => {
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(status);
  expect((error as ApiError).reason).toBe(reason);
  if (message) expect((error as ApiError).message).toBe(message);
};

describe('startOralReadingDecider', () => {
  it('opens the reading with the header, the passage version and the reading time, in the teacher’s name', async () => {
    await spec
      .givenState({ supersedesVoidId: 5, started: null })
      .when(start())
      .thenEvents([
        {
          eventId: deterministicEventId('oral-reading-started', attemptId),
          type: ORAL_READING_STARTED,
          data: {
            attemptId,
            kind: 'oral_text',
            cell: 'oral_text',
            ...place,
            studentId: 7,
            window: 'BOY',
            startedAt: at.toISOString(),
            startedBy: 40,
            supersedesVoidId: 5,
            passageId: 'p1',
            passageVersion: 3,
            wordCount: 40,
            durationSeconds: ORF_DURATION_SECONDS,
          },
          metadata: { organizationId: 'org_1', actorUserId: 40 },
        },
      ]);
  });

  it('refuses, in order: a passage not served here (404), of another grade (422), between windows (409)', async () => {
    const given = spec.givenState(startOralReadingDecider.initialState());
    const draft = { ...passage, status: 'retired', grade: 3 } as ReadingPassage;
    await given.when(start({ passage: draft })).thenThrows(refused(404));
    const otherOrg = { ...passage, organizationId: 'org_2' } as ReadingPassage;
    await given.when(start({ passage: otherOrg })).thenThrows(refused(404));
    const grade3 = { ...passage, grade: 3 } as ReadingPassage;
    await given
      .when(start({ passage: grade3, window: { open: null, today: '2026-12-20' } }))
      .thenThrows(refused(422, 'passage_grade_mismatch', 'the passage is for grade 3, the class is grade 2'));
    await given
      .when(start({ window: { open: null, today: '2026-12-20' } }))
      .thenThrows(refused(409, 'no_open_window', 'no screening window is open for 2026-2027 on 2026-12-20'));
  });
});
