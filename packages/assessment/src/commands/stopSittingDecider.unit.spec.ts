import { DeciderSpecification } from '@qiraa/command-kit/testing';
import { deterministicEventId } from '@qiraa/eventstore';
import { describe, it } from 'vitest';
import { SITTING_ANSWER_RECORDED, SITTING_COMPLETED, SITTING_STARTED, SITTING_STOPPED } from '../events';
import type { SittingFold } from '../events/sittingTypes';
import type { WindowCalendarState } from '../queries/windowState';
import { stopClosedSittingDecider } from './sittingCommands';
import { stopSittingDecider } from './stopOpenSitting';

const spec = DeciderSpecification.for(stopSittingDecider);
const attemptId = 'a1b2c3d4-0000-4000-8000-000000000002';
const at = new Date('2026-12-01T07:00:00Z');
const stop = { attemptId, reason: 'window_closed' as const, at };
// The fold reads only the start's organization and which events end a sitting.
const started = { type: SITTING_STARTED, data: { attemptId, organizationId: 'org_1' } };
const answered = { type: SITTING_ANSWER_RECORDED, data: { attemptId, position: 0 } };

describe('stopSittingDecider', () => {
  it('stops an open sitting once, under one id, in the sitting’s organization', async () => {
    await spec
      .given([started, answered])
      .when(stop)
      .thenEvents([
        {
          eventId: deterministicEventId('sitting-stopped', attemptId),
          type: SITTING_STOPPED,
          data: { attemptId, at: at.toISOString(), reason: 'window_closed' },
          metadata: { organizationId: 'org_1' },
        },
      ]);
  });

  it('leaves an ended sitting, and a stream that holds none, alone', async () => {
    await spec
      .given([started, { type: SITTING_COMPLETED, data: { attemptId } }])
      .when(stop)
      .thenNothing();
    await spec.given([]).when(stop).thenNothing();
  });
});

describe('stopClosedSittingDecider (a resume’s window-close stop)', () => {
  // The cases below decide without a read: only a stop reads the cut tables for its summary.
  const closed = DeciderSpecification.for(stopClosedSittingDecider({ sql: null as never, store: null as never }));
  const fold = {
    attemptId,
    started: { attemptId, window: 'BOY', organizationId: 'org_1' },
    answers: new Map(),
    status: 'in_progress',
    endReason: null,
    endedAt: null,
    voided: false,
    streamVersion: 2n,
  } as unknown as SittingFold;
  const resume = (openWindow: string | null) => ({ calendar: { openWindow } as WindowCalendarState, now: at });

  it('leaves a sitting whose window is open, an ended one and a voided one alone', async () => {
    await closed.givenState(fold).when(resume('BOY')).thenNothing();
    await closed
      .givenState({ ...fold, status: 'stopped', endReason: 'window_closed' })
      .when(resume(null))
      .thenNothing();
    await closed
      .givenState({ ...fold, voided: true })
      .when(resume(null))
      .thenNothing();
    await closed.givenState(null).when(resume(null)).thenNothing();
  });
});
