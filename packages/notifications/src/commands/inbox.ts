import { type Decider, handleCommand } from '@qiraa/command-kit';
import type { Sql, TransactionSql, UnitOfWork } from '@qiraa/db';
import {
  deterministicEventId,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
  randomEventId,
} from '@qiraa/eventstore';
import { notificationsCommands } from '../commandContext';
import {
  ALL_NOTIFICATIONS_READ,
  type AllNotificationsRead,
  NOTIFICATION_DISMISSED,
  NOTIFICATION_READ,
  type NotificationDismissed,
  type NotificationRead,
  notificationStream,
} from '../events';
import type { DeliveryState } from '../schemas/notificationKinds';

interface InboxDeps {
  readonly sql: Sql;
  readonly store: EventStore;
}

// First key of the two-key advisory lock space of inbox commands (second key: the recipient).
const INBOX_LOCK_SPACE = 727_172_009;

/**
 * Every inbox command of one recipient runs alone (a transaction-level lock on the recipient), so a read, a
 * dismiss and a mark-all-read racing on one inbox see each other's result and the unread count stays exact.
 */
async function lockInbox(tx: TransactionSql, recipientUserId: number): Promise<void> {
  await tx`select pg_advisory_xact_lock(${INBOX_LOCK_SPACE}, (${recipientUserId}::bigint % 2147483647)::int)`;
}

async function stateOf(tx: TransactionSql, recipientUserId: number, notificationId: string) {
  const [row] = await tx<{ delivery_state: DeliveryState }[]>`
    select delivery_state from notifications where id = ${notificationId} and recipient_user_id = ${recipientUserId}`;
  return row?.delivery_state ?? null;
}

/** One notification of the recipient's inbox as a read or a dismissal decides on it (null: not theirs, or none). */
export interface NotificationState {
  readonly deliveryState: DeliveryState | null;
}

export interface NotificationCommand {
  readonly recipientUserId: number;
  readonly notificationId: string;
}

/** The inbox row's state read under the recipient's inbox lock, in the command's transaction. */
const notificationLoader = (input: NotificationCommand) => ({
  name: 'the notification’s row under the inbox lock',
  inTransaction: true as const,
  async load(uow: UnitOfWork) {
    await lockInbox(uow.sql, input.recipientUserId);
    const deliveryState = await stateOf(uow.sql, input.recipientUserId, input.notificationId);
    // Expected `any`: the inbox lock serializes the recipient's commands.
    return { state: { deliveryState }, version: 'any' as const };
  },
});

const evolveNotification = (state: NotificationState, event: RecordedEvent): NotificationState =>
  event.type === NOTIFICATION_READ
    ? { deliveryState: 'read' }
    : event.type === NOTIFICATION_DISMISSED
      ? { deliveryState: 'dismissed' }
      : state;

export type MarkReadResult =
  | { outcome: 'read' }
  | { outcome: 'already_read' }
  | { outcome: 'dismissed' }
  | { outcome: 'not_found' };

/** delivered_in_app → read (`NotificationRead`, once: a deterministic id); read, dismissed or none: nothing. */
export const markReadDecider: Decider<NotificationCommand, NewEvent<NotificationRead>, NotificationState> = {
  initialState: () => ({ deliveryState: null }),
  evolve: evolveNotification,
  decide({ recipientUserId, notificationId }, { deliveryState }) {
    if (deliveryState === null || deliveryState === 'read' || deliveryState === 'dismissed') return [];
    return [
      {
        eventId: deterministicEventId('notification-read', notificationId),
        type: NOTIFICATION_READ,
        data: { notificationId, recipientUserId },
      },
    ];
  },
};

/** delivered_in_app → read (`NotificationRead`); repeating is a no-op. Another user's id is not_found. */
export async function markRead(
  deps: InboxDeps,
  input: { recipientUserId: number; notificationId: string },
): Promise<MarkReadResult> {
  const result = await handleCommand(deps, {
    context: notificationsCommands,
    streamId: notificationStream(input.recipientUserId),
    decider: markReadDecider,
    command: input,
    load: notificationLoader(input),
  });
  if (result.kind === 'appended') return { outcome: 'read' };
  const state = result.state.deliveryState;
  return { outcome: state === null ? 'not_found' : state === 'dismissed' ? 'dismissed' : 'already_read' };
}

export type DismissResult =
  | { outcome: 'dismissed' }
  | { outcome: 'already_dismissed' }
  | { outcome: 'already_read' }
  | { outcome: 'not_found' };

/** delivered_in_app → dismissed (`NotificationDismissed`, once); terminal; a read one cannot; none: nothing. */
export const dismissDecider: Decider<NotificationCommand, NewEvent<NotificationDismissed>, NotificationState> = {
  initialState: () => ({ deliveryState: null }),
  evolve: evolveNotification,
  decide({ recipientUserId, notificationId }, { deliveryState }) {
    if (deliveryState === null || deliveryState === 'dismissed' || deliveryState === 'read') return [];
    return [
      {
        eventId: deterministicEventId('notification-dismissed', notificationId),
        type: NOTIFICATION_DISMISSED,
        data: { notificationId, recipientUserId },
      },
    ];
  },
};

/** delivered_in_app → dismissed (`NotificationDismissed`); terminal, repeating is a no-op; a read one cannot. */
export async function dismiss(
  deps: InboxDeps,
  input: { recipientUserId: number; notificationId: string },
): Promise<DismissResult> {
  const result = await handleCommand(deps, {
    context: notificationsCommands,
    streamId: notificationStream(input.recipientUserId),
    decider: dismissDecider,
    command: input,
    load: notificationLoader(input),
  });
  if (result.kind === 'appended') return { outcome: 'dismissed' };
  const state = result.state.deliveryState;
  return { outcome: state === null ? 'not_found' : state === 'read' ? 'already_read' : 'already_dismissed' };
}

export interface MarkAllRead {
  readonly recipientUserId: number;
  /** The event's id, made by the caller (a mark-all is not idempotent: each one lists the rows it read). */
  readonly eventId: string;
}

/** Every delivered_in_app row of the recipient → read: one `AllNotificationsRead` listing them; none: nothing. */
export const markAllReadDecider: Decider<MarkAllRead, NewEvent<AllNotificationsRead>, readonly string[]> = {
  initialState: () => [],
  evolve: (state, event) => (event.type === ALL_NOTIFICATIONS_READ ? [] : state),
  decide({ recipientUserId, eventId }, delivered) {
    if (delivered.length === 0) return [];
    return [{ eventId, type: ALL_NOTIFICATIONS_READ, data: { recipientUserId, notificationIds: [...delivered] } }];
  },
};

/** Every delivered_in_app row of the recipient → read (`AllNotificationsRead` lists them); the count changed. */
export async function markAllRead(deps: InboxDeps, recipientUserId: number): Promise<{ updated: number }> {
  const result = await handleCommand(deps, {
    context: notificationsCommands,
    streamId: notificationStream(recipientUserId),
    decider: markAllReadDecider,
    command: { recipientUserId, eventId: randomEventId() },
    load: {
      name: 'the delivered rows under the inbox lock',
      inTransaction: true,
      async load(uow) {
        await lockInbox(uow.sql, recipientUserId);
        const rows = await uow.sql<{ id: string }[]>`
          select id from notifications
          where recipient_user_id = ${recipientUserId} and delivery_state = 'delivered_in_app' order by id`;
        return { state: rows.map((r) => r.id), version: 'any' };
      },
    },
  });
  const [event] = result.events;
  return { updated: event ? event.data.notificationIds.length : 0 };
}
