import { DeciderSpecification } from '@qiraa/command-kit/testing';
import { deterministicEventId } from '@qiraa/eventstore';
import { describe, expect, it } from 'vitest';
import { ATTEMPT_VOIDED, SITTING_STARTED, SITTING_STOPPED } from '../events';
import { type VoidAttempt, VoidRefused, type VoidState, type VoidTarget, voidAttemptDecider } from './voidAttempt';

const spec = DeciderSpecification.for(voidAttemptDecider);
const attemptId = 'a1b2c3d4-0000-4000-8000-000000000006';
const at = '2026-10-05T09:00:00.000Z';
const cls = { id: 'c1', schoolId: 's1', organizationId: 'org_1', grade: 2, academicYear: '2026-2027' };
const sitting: VoidTarget = {
  kind: 'digital_sitting',
  classId: 'c1',
  studentId: 7,
  academicYear: '2026-2027',
  window: 'BOY',
  voidId: null,
};
const command: VoidAttempt = { attemptId, cls, kind: 'digital_sitting', reason: 'started_by_mistake', actorUserId: 40 };
const drawn = { voidId: 12, at };
const state = (over: Partial<VoidState>): VoidState => ({ ...voidAttemptDecider.initialState(), drawn, ...over });
const metadata = { actorUserId: 40, organizationId: 'org_1' };
const voided = (endedActiveSitting: boolean, kind = 'digital_sitting') => ({
  eventId: deterministicEventId('attempt-voided', attemptId),
  type: ATTEMPT_VOIDED,
  data: { attemptId, kind, voidId: 12, reason: 'started_by_mistake', actorUserId: 40, endedActiveSitting, at },
  metadata,
});
const refused = (reason: string) => (error: unknown) => {
  expect(error).toBeInstanceOf(VoidRefused);
  expect((error as VoidRefused).reason).toBe(reason);
};

describe('voidAttemptDecider', () => {
  it('stops an open digital sitting, then voids it, under the attempt’s ids', async () => {
    const open = voidAttemptDecider.evolve(state({ target: sitting }), {
      eventId: 'e1',
      streamId: `sitting-${attemptId}`,
      streamVersion: 1n,
      type: SITTING_STARTED,
      schemaVersion: 1,
      data: { attemptId },
      metadata: {},
      createdAt: new Date(0),
      position: '1',
    });
    await spec
      .givenState(open)
      .when(command)
      .thenEvents([
        {
          eventId: deterministicEventId('sitting-stopped', attemptId),
          type: SITTING_STOPPED,
          data: { attemptId, at, reason: 'voided' },
          metadata,
        },
        voided(true),
      ]);
  });

  it('voids an ended sitting alone; an open oral reading is ended by the void itself', async () => {
    await spec
      .givenState(state({ target: sitting, opened: true, ended: true }))
      .when(command)
      .thenEvents([voided(false)]);
    const reading: VoidTarget = { ...sitting, kind: 'oral_text' };
    await spec
      .givenState(state({ target: reading, opened: true }))
      .when({ ...command, kind: 'oral_text' })
      .thenEvents([voided(true, 'oral_text')]);
  });

  it('refuses, in order: no attempt of the class, another kind or year, voided already', async () => {
    await spec.givenState(state({})).when(command).thenThrows(refused('not_found'));
    await spec
      .givenState(state({ target: { ...sitting, classId: 'c2' } }))
      .when(command)
      .thenThrows(refused('not_found'));
    await spec
      .givenState(state({ target: sitting }))
      .when({ ...command, kind: 'oral_text' })
      .thenThrows(refused('not_a_window_sitting'));
    await spec
      .givenState(state({ target: { ...sitting, academicYear: '2025-2026' } }))
      .when(command)
      .thenThrows(refused('not_a_window_sitting'));
    await spec
      .givenState(state({ target: { ...sitting, voidId: 3 } }))
      .when(command)
      .thenThrows(refused('already_voided'));
  });

  it('a void already on the stream (its row not yet projected) is already_voided', async () => {
    const onStream = { ...voided(false).data, kind: 'digital_sitting' as const, reason: 'other' as const, voidId: 9 };
    await spec
      .givenState(state({ target: sitting, opened: true, ended: true, voided: onStream }))
      .when(command)
      .thenThrows(refused('already_voided'));
  });
});
