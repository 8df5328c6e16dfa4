import { DeciderSpecification } from '@qiraa/command-kit/testing';
import { ApiError } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import { describe, expect, it } from 'vitest';
import { TRAINING_ALERT_ACKNOWLEDGED, TRAINING_ALERT_RAISED, TRAINING_ALERT_RESOLVED } from '../events/alertEvents';
import { type AlertState, acknowledgeAlertDecider } from './acknowledgeAlert';

const teacher: Caller = {
  userId: 40,
  persona: 'TEACHER',
  organizationId: 'org-a',
  schoolId: 'school-a',
  permissions: ['VIEW_OWN_CLASSES'],
};
const command = { alertId: 'alert-1', caller: teacher, acknowledgedAt: '2026-11-28T08:00:00.000Z' };
const raised = { type: TRAINING_ALERT_RAISED, data: { alertId: 'alert-1', studentId: 7, organizationId: 'org-a' } };
const open = (over: Partial<NonNullable<AlertState['alert']>> = {}): AlertState => ({
  alert: { organizationId: 'org-a', studentId: 7, status: 'open', ...over },
  callerReaches: true,
});
const refusedWith = (status: number, reason?: string) => (error: unknown) => {
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(status);
  if (reason) expect((error as ApiError).reason).toBe(reason);
};

describe('acknowledging a training alert (decider)', () => {
  const spec = DeciderSpecification.for(acknowledgeAlertDecider);

  it('records who acknowledged an open alert, when, for its organization', async () => {
    await spec
      .givenState(open())
      .when(command)
      .thenEvents([
        {
          type: TRAINING_ALERT_ACKNOWLEDGED,
          data: {
            alertId: 'alert-1',
            studentId: 7,
            organizationId: 'org-a',
            acknowledgedBy: 40,
            acknowledgedAt: '2026-11-28T08:00:00.000Z',
          },
          metadata: { organizationId: 'org-a', actorUserId: 40 },
        },
      ]);
  });

  it('an unknown alert and another organization’s alert answer alike: 404', async () => {
    await spec.givenState(acknowledgeAlertDecider.initialState()).when(command).thenThrows(refusedWith(404));
    await spec
      .givenState(open({ organizationId: 'org-b' }))
      .when(command)
      .thenThrows(refusedWith(404));
  });

  it('a teacher who does not reach the child is refused 403, before the state is looked at', async () => {
    await spec
      .givenState({ ...open({ status: 'resolved' }), callerReaches: false })
      .when(command)
      .thenThrows(refusedWith(403));
  });

  it('resolved wins over acknowledged; each answers its own 409', async () => {
    await spec
      .givenState(open({ status: 'resolved' }))
      .when(command)
      .thenThrows(refusedWith(409, 'already_resolved'));
    await spec
      .givenState(open({ status: 'acknowledged' }))
      .when(command)
      .thenThrows(refusedWith(409, 'already_acknowledged'));
  });

  it('folds the alert stream: raised is open, then acknowledged, then resolved', () => {
    const { evolve } = acknowledgeAlertDecider;
    const e = (type: string, data: unknown, v: bigint) => ({
      eventId: `e${v}`,
      streamId: 'trainingalert-alert-1',
      streamVersion: v,
      type,
      schemaVersion: 1,
      data,
      metadata: {},
      createdAt: new Date(0),
      position: String(v),
    });
    const s1 = evolve(acknowledgeAlertDecider.initialState(), e(raised.type, raised.data, 1n));
    expect(s1.alert).toEqual({ organizationId: 'org-a', studentId: 7, status: 'open' });
    const s2 = evolve(s1, e(TRAINING_ALERT_ACKNOWLEDGED, {}, 2n));
    expect(s2.alert?.status).toBe('acknowledged');
    expect(evolve(s2, e(TRAINING_ALERT_RESOLVED, {}, 3n)).alert?.status).toBe('resolved');
  });

  it('the spec itself fails when the decided events differ (an honest spec)', async () => {
    await expect(spec.givenState(open()).when(command).thenEvents([])).rejects.toThrow();
    await expect(spec.givenState(open()).when(command).thenThrows()).rejects.toThrow(/expected a refusal/);
  });
});
