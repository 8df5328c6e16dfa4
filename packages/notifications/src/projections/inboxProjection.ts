import { defineProjection } from '@qiraa/projections';
import {
  ALL_NOTIFICATIONS_READ,
  NOTIFICATION_DISMISSED,
  NOTIFICATION_DISPATCHED,
  NOTIFICATION_READ,
  type NotificationEvent,
} from '../events';

interface Transition {
  id: string;
  state: 'read' | 'dismissed';
  at: Date;
  /** Only AllNotificationsRead names the recipient the rows must belong to. */
  recipient: number | null;
}

/**
 * The inbox (`notifications`), applied inline by dispatch and the inbox commands (a read is visible at once)
 * and again by the runner. Idempotent: an insert conflicts on the id, and each transition only moves a row
 * that is still `delivered_in_app`, at the event's time. A batch is two statements: every dispatch in one
 * insert, then every row's first transition in the batch in one update (a later one would find the row no
 * longer `delivered_in_app`, exactly as when the events are applied one by one).
 */
export const notificationsInboxProjection = defineProjection<NotificationEvent>({
  name: 'notifications_inbox',
  version: 1,
  handles: [NOTIFICATION_DISPATCHED, NOTIFICATION_READ, NOTIFICATION_DISMISSED, ALL_NOTIFICATIONS_READ],
  tables: ['notifications'],
  async applyBatch({ sql, table }, events) {
    const dispatched = [];
    const transitions = new Map<string, Transition>();
    const transition = (t: Transition) => {
      if (!transitions.has(t.id)) transitions.set(t.id, t);
    };
    for (const event of events) {
      switch (event.type) {
        case NOTIFICATION_DISPATCHED: {
          const d = event.data;
          dispatched.push({
            id: d.notificationId,
            recipient_user_id: d.recipientUserId,
            kind: d.kind,
            payload: d.payload,
            organization_id: d.organizationId,
            rendered_title_ar: d.renderedTitleAr,
            rendered_body_ar: d.renderedBodyAr,
            severity: d.severity,
            source_entity_type: d.sourceEntityType,
            source_entity_id: d.sourceEntityId,
            created_at: event.createdAt,
          });
          break;
        }
        case NOTIFICATION_READ:
        case NOTIFICATION_DISMISSED: {
          const d = event.data;
          const state = event.type === NOTIFICATION_READ ? 'read' : 'dismissed';
          transition({ id: d.notificationId, state, at: event.createdAt, recipient: null });
          break;
        }
        case ALL_NOTIFICATIONS_READ: {
          const d = event.data;
          for (const id of d.notificationIds) {
            transition({ id, state: 'read', at: event.createdAt, recipient: d.recipientUserId });
          }
          break;
        }
      }
    }
    if (dispatched.length > 0) {
      await sql`
        insert into ${sql(table('notifications'))}
          (id, recipient_user_id, kind, payload, organization_id, rendered_title_ar, rendered_body_ar, severity,
           source_entity_type, source_entity_id, created_at)
        select r.id, r.recipient_user_id, r.kind, r.payload, r.organization_id, r.rendered_title_ar,
               r.rendered_body_ar, r.severity, r.source_entity_type, r.source_entity_id, r.created_at
        from jsonb_to_recordset(${sql.json(dispatched as never)}) as r(
          id uuid, recipient_user_id bigint, kind text, payload jsonb, organization_id text,
          rendered_title_ar text, rendered_body_ar text, severity text, source_entity_type text,
          source_entity_id text, created_at timestamptz)
        on conflict (id) do nothing`;
    }
    if (transitions.size > 0) {
      await sql`
        update ${sql(table('notifications'))} n
        set delivery_state = t.state,
            read_at = case when t.state = 'read' then t.at else n.read_at end,
            dismissed_at = case when t.state = 'dismissed' then t.at else n.dismissed_at end
        from jsonb_to_recordset(${sql.json([...transitions.values()] as never)})
          as t(id uuid, state text, at timestamptz, recipient bigint)
        where n.id = t.id and n.delivery_state = 'delivered_in_app'
          and (t.recipient is null or n.recipient_user_id = t.recipient)`;
    }
  },
});
