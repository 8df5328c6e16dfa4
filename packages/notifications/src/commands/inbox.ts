import { inTransaction, type Sql, type TransactionSql, type UnitOfWork } from '@qiraa/db';
import { deterministicEventId, type EventStore, randomEventId } from '@qiraa/eventstore';
import { applyInline } from '@qiraa/projections';
import {
  ALL_NOTIFICATIONS_READ,
  type AllNotificationsRead,
  NOTIFICATION_DISMISSED,
  NOTIFICATION_READ,
  type NotificationDismissed,
  type NotificationRead,
  notificationStream,
} from '../events';
import type { DeliveryState } from '../kinds';
import { notificationsInboxProjection } from '../projections/inboxProjection';

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

async function appendAndApply(
  deps: InboxDeps,
  uow: UnitOfWork,
  recipientUserId: number,
  event: { eventId: string; type: string; data: unknown },
) {
  const appended = await deps.store.append(notificationStream(recipientUserId), [event], { uow });
  if (appended.kind === 'appended') await applyInline(uow, notificationsInboxProjection, appended.events);
}

async function inInbox<T>(deps: InboxDeps, recipientUserId: number, work: (uow: UnitOfWork) => Promise<T>) {
  return inTransaction(deps.sql, async (uow) => {
    await lockInbox(uow.sql, recipientUserId);
    return work(uow);
  });
}

export type MarkReadResult =
  | { outcome: 'read' }
  | { outcome: 'already_read' }
  | { outcome: 'dismissed' }
  | { outcome: 'not_found' };

/** delivered_in_app → read (`NotificationRead`); repeating is a no-op. Another user's id is not_found. */
export function markRead(
  deps: InboxDeps,
  input: { recipientUserId: number; notificationId: string },
): Promise<MarkReadResult> {
  return inInbox(deps, input.recipientUserId, async (uow) => {
    const state = await stateOf(uow.sql, input.recipientUserId, input.notificationId);
    if (state === null) return { outcome: 'not_found' } as const;
    if (state === 'read') return { outcome: 'already_read' } as const;
    if (state === 'dismissed') return { outcome: 'dismissed' } as const;
    const data: NotificationRead = { notificationId: input.notificationId, recipientUserId: input.recipientUserId };
    await appendAndApply(deps, uow, input.recipientUserId, {
      eventId: deterministicEventId('notification-read', input.notificationId),
      type: NOTIFICATION_READ,
      data,
    });
    return { outcome: 'read' } as const;
  });
}

export type DismissResult =
  | { outcome: 'dismissed' }
  | { outcome: 'already_dismissed' }
  | { outcome: 'already_read' }
  | { outcome: 'not_found' };

/** delivered_in_app → dismissed (`NotificationDismissed`); terminal, repeating is a no-op; a read one cannot. */
export function dismiss(
  deps: InboxDeps,
  input: { recipientUserId: number; notificationId: string },
): Promise<DismissResult> {
  return inInbox(deps, input.recipientUserId, async (uow) => {
    const state = await stateOf(uow.sql, input.recipientUserId, input.notificationId);
    if (state === null) return { outcome: 'not_found' } as const;
    if (state === 'dismissed') return { outcome: 'already_dismissed' } as const;
    if (state === 'read') return { outcome: 'already_read' } as const;
    const data: NotificationDismissed = {
      notificationId: input.notificationId,
      recipientUserId: input.recipientUserId,
    };
    await appendAndApply(deps, uow, input.recipientUserId, {
      eventId: deterministicEventId('notification-dismissed', input.notificationId),
      type: NOTIFICATION_DISMISSED,
      data,
    });
    return { outcome: 'dismissed' } as const;
  });
}

/** Every delivered_in_app row of the recipient → read (`AllNotificationsRead` lists them); the count changed. */
export function markAllRead(deps: InboxDeps, recipientUserId: number): Promise<{ updated: number }> {
  return inInbox(deps, recipientUserId, async (uow) => {
    const rows = await uow.sql<{ id: string }[]>`
      select id from notifications
      where recipient_user_id = ${recipientUserId} and delivery_state = 'delivered_in_app' order by id`;
    if (rows.length === 0) return { updated: 0 };
    const data: AllNotificationsRead = { recipientUserId, notificationIds: rows.map((r) => r.id) };
    await appendAndApply(deps, uow, recipientUserId, { eventId: randomEventId(), type: ALL_NOTIFICATIONS_READ, data });
    return { updated: rows.length };
  });
}
