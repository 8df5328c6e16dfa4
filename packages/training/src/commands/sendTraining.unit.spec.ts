import { DeciderSpecification } from '@qiraa/command-kit/testing';
import type { Caller } from '@qiraa/identity';
import { describe, it } from 'vitest';
import { TRAINING_SENT } from '../events/sendEvents';
import type { SendScope } from '../queries/sendScope';
import { type SendView, sendTrainingDecider } from './sendTraining';

const caller = { userId: 41, persona: 'TEACHER', organizationId: 'org-a', permissions: [] } as unknown as Caller;
const scope = {
  organizationId: 'org-a',
  teacherUserId: 40,
  classId: 'class-1',
  groupId: null,
  grade: 2,
  academicYear: '2026-2027',
  studentIds: [7, 8],
} as SendScope;
const command = {
  caller,
  body: { classId: 'class-1', skillId: 'letter_sounds', untilDate: '2026-11-30' },
  sendId: 'send-1',
  now: new Date('2026-11-28T09:00:00.000Z'),
};

describe('a teacher’s send (decider)', () => {
  const spec = DeciderSpecification.for(sendTrainingDecider);

  it('sends to the scope the loader read, for the teacher, by the caller, until the window’s end', async () => {
    await spec
      .givenState({ kind: 'send', scope, untilAt: new Date('2026-11-30T21:59:59.000Z') })
      .when(command)
      .thenEvents([
        {
          eventId: 'send-1',
          type: TRAINING_SENT,
          data: {
            sendId: 'send-1',
            organizationId: 'org-a',
            teacherUserId: 40,
            sentByUserId: 41,
            classId: 'class-1',
            groupId: null,
            skillId: 'letter_sounds',
            studentIds: [7, 8],
            untilAt: '2026-11-30T21:59:59.000Z',
            sentAt: '2026-11-28T09:00:00.000Z',
          },
          metadata: { organizationId: 'org-a', actorUserId: 41 },
        },
      ]);
  });

  it('a key answered already sends nothing again (its answer is replayed)', async () => {
    await spec
      .givenState({ kind: 'replay', status: 201, view: {} as SendView })
      .when(command)
      .thenNothing();
  });
});
