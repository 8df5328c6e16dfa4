import { defineProjection } from '@qiraa/projections';
import {
  ALL_NOTIFICATIONS_READ,
  type AllNotificationsRead,
  NOTIFICATION_DISMISSED,
  NOTIFICATION_DISPATCHED,
  NOTIFICATION_READ,
  type NotificationDismissed,
  type NotificationDispatched,
  type NotificationRead,
} from '../events';

/**
 * The inbox (`notifications`), applied inline by dispatch and the inbox commands (a read is visible at once)
 * and again by the runner. Idempotent: an insert conflicts on the id, and each transition only moves a row
 * that is still `delivered_in_app`, at the event's time.
 */
export const notificationsInboxProjection = defineProjection({
  name: 'notifications_inbox',
  version: 1,
  handles: [NOTIFICATION_DISPATCHED, NOTIFICATION_READ, NOTIFICATION_DISMISSED, ALL_NOTIFICATIONS_READ],
  tables: ['notifications'],
  async apply({ sql, table }, event) {
    switch (event.type) {
      case NOTIFICATION_DISPATCHED: {
        const d = event.data as NotificationDispatched;
        await sql`
          insert into ${sql(table('notifications'))}
            (id, recipient_user_id, kind, payload, organization_id, rendered_title_ar, rendered_body_ar, severity,
             source_entity_type, source_entity_id, created_at)
          values (${d.notificationId}, ${d.recipientUserId}, ${d.kind}, ${sql.json(d.payload as never)},
                  ${d.organizationId}, ${d.renderedTitleAr}, ${d.renderedBodyAr}, ${d.severity},
                  ${d.sourceEntityType}, ${d.sourceEntityId}, ${event.createdAt})
          on conflict (id) do nothing`;
        return;
      }
      case NOTIFICATION_READ: {
        const d = event.data as NotificationRead;
        await sql`
          update ${sql(table('notifications'))} set delivery_state = 'read', read_at = ${event.createdAt}
          where id = ${d.notificationId} and delivery_state = 'delivered_in_app'`;
        return;
      }
      case NOTIFICATION_DISMISSED: {
        const d = event.data as NotificationDismissed;
        await sql`
          update ${sql(table('notifications'))} set delivery_state = 'dismissed', dismissed_at = ${event.createdAt}
          where id = ${d.notificationId} and delivery_state = 'delivered_in_app'`;
        return;
      }
      case ALL_NOTIFICATIONS_READ: {
        const d = event.data as AllNotificationsRead;
        if (d.notificationIds.length === 0) return;
        await sql`
          update ${sql(table('notifications'))} set delivery_state = 'read', read_at = ${event.createdAt}
          where id in ${sql(d.notificationIds)} and recipient_user_id = ${d.recipientUserId}
            and delivery_state = 'delivered_in_app'`;
        return;
      }
    }
  },
});
