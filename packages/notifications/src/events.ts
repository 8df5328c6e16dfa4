import type { DeliveryState, Severity } from './schemas/notificationKinds';

/** One stream per recipient: every notification of a user and what the user did with it. */
export const notificationStream = (recipientUserId: number) => `notification-${recipientUserId}`;

export const NOTIFICATION_DISPATCHED = 'NotificationDispatched';
export const NOTIFICATION_READ = 'NotificationRead';
export const NOTIFICATION_DISMISSED = 'NotificationDismissed';
export const ALL_NOTIFICATIONS_READ = 'AllNotificationsRead';

export interface NotificationDispatched {
  notificationId: string;
  recipientUserId: number;
  kind: string;
  templateVersion: number;
  payload: Record<string, unknown>;
  organizationId: string | null;
  renderedTitleAr: string;
  renderedBodyAr: string;
  severity: Severity;
  sourceEntityType: string | null;
  sourceEntityId: string | null;
}

export interface NotificationRead {
  notificationId: string;
  recipientUserId: number;
}

export interface NotificationDismissed {
  notificationId: string;
  recipientUserId: number;
}

/** The rows that moved delivered_in_app → read, listed so a replay changes exactly those. */
export interface AllNotificationsRead {
  recipientUserId: number;
  notificationIds: string[];
}

export type { DeliveryState };

/**
 * The notification streams' events, typed: `type` discriminates `data` (docs/architecture.md, "Typed
 * events"). Add an event here with its constant and its data interface.
 */
export type NotificationEvent =
  | { type: typeof NOTIFICATION_DISPATCHED; data: NotificationDispatched }
  | { type: typeof NOTIFICATION_READ; data: NotificationRead }
  | { type: typeof NOTIFICATION_DISMISSED; data: NotificationDismissed }
  | { type: typeof ALL_NOTIFICATIONS_READ; data: AllNotificationsRead };
