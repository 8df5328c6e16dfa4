import { defineProjection } from '@qiraa/projections';
import { AUDIT_RECORDED, type AuditEvent } from '../events';

/** Every AuditRecorded event becomes one audit_log row (one insert per batch); replaying an event changes nothing. */
export const auditLogProjection = defineProjection<AuditEvent>({
  name: 'audit_log',
  version: 1,
  handles: [AUDIT_RECORDED],
  tables: ['audit_log'],
  async applyBatch({ sql, table }, events) {
    const rows = events.map((event) => {
      const d = event.data;
      return {
        id: d.auditId ?? `audit:${event.eventId}`,
        event_id: event.eventId,
        event_type: d.eventType,
        organization_id: d.organizationId,
        actor_user_id: d.actorUserId,
        target_student_id: d.targetStudentId ?? null,
        target_class_id: d.targetClassId ?? null,
        detail: d.detail ?? {},
        occurred_at: d.occurredAt,
        recorded_at: event.createdAt,
      };
    });
    await sql`
      insert into ${sql(table('audit_log'))}
        (id, event_id, event_type, organization_id, actor_user_id, target_student_id, target_class_id,
         detail, occurred_at, recorded_at)
      select r.id, r.event_id, r.event_type, r.organization_id, r.actor_user_id, r.target_student_id,
             r.target_class_id, r.detail, r.occurred_at, r.recorded_at
      from jsonb_to_recordset(${sql.json(rows as never)}) as r(
        id text, event_id uuid, event_type text, organization_id text, actor_user_id bigint,
        target_student_id bigint, target_class_id text, detail jsonb, occurred_at timestamptz,
        recorded_at timestamptz)
      on conflict do nothing`;
  },
});
