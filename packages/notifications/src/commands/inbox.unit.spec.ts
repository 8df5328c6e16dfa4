import { DeciderSpecification } from '@qiraa/command-kit/testing';
import { describe, expect, it } from 'vitest';
import {
  ALL_NOTIFICATIONS_READ,
  NOTIFICATION_DISMISSED,
  NOTIFICATION_DISPATCHED,
  NOTIFICATION_READ,
  type NotificationDispatched,
} from '../events';
import { dispatchedDecider } from './dispatch';
import { dismissDecider, markAllReadDecider, markReadDecider } from './inbox';

const input = { recipientUserId: 40, notificationId: 'n-1' };

describe('inbox commands (deciders)', () => {
  it('marks a delivered notification read; read, dismissed or unknown: nothing', async () => {
    const spec = DeciderSpecification.for(markReadDecider);
    await spec
      .givenState({ deliveryState: 'delivered_in_app' })
      .when(input)
      .thenEvents([{ type: NOTIFICATION_READ, data: input }]);
    await spec
      .given([{ type: NOTIFICATION_READ, data: input }])
      .when(input)
      .thenNothing();
    await spec.givenState({ deliveryState: 'dismissed' }).when(input).thenNothing();
    await spec.givenState({ deliveryState: null }).when(input).thenNothing();
  });

  it('dismisses a delivered notification; dismissed, read or unknown: nothing', async () => {
    const spec = DeciderSpecification.for(dismissDecider);
    await spec
      .givenState({ deliveryState: 'delivered_in_app' })
      .when(input)
      .thenEvents([{ type: NOTIFICATION_DISMISSED, data: input }]);
    await spec
      .given([{ type: NOTIFICATION_DISMISSED, data: input }])
      .when(input)
      .thenNothing();
    await spec.givenState({ deliveryState: 'read' }).when(input).thenNothing();
    await spec.givenState({ deliveryState: null }).when(input).thenNothing();
  });

  it('marks every delivered notification read in one event; none delivered: nothing', async () => {
    const spec = DeciderSpecification.for(markAllReadDecider);
    const command = { recipientUserId: 40, eventId: 'e-1' };
    await spec
      .givenState(['n-1', 'n-2'])
      .when(command)
      .thenEvents([
        {
          eventId: 'e-1',
          type: ALL_NOTIFICATIONS_READ,
          data: { recipientUserId: 40, notificationIds: ['n-1', 'n-2'] },
        },
      ]);
    await spec.givenState([]).when(command).thenNothing();
  });
});

describe('a dispatch (decider)', () => {
  it('one NotificationDispatched per notification: its id derived from the notification’s', async () => {
    const data = { notificationId: 'n-9', recipientUserId: 40, organizationId: 'org-a' } as NotificationDispatched;
    const [first] = await DeciderSpecification.for(dispatchedDecider).givenState(null).when(data).events();
    const [again] = await DeciderSpecification.for(dispatchedDecider).givenState(null).when(data).events();
    expect(first).toMatchObject({ type: NOTIFICATION_DISPATCHED, data, metadata: { organizationId: 'org-a' } });
    expect(first!.eventId).toBe(again!.eventId);
  });
});
