import { defineProjection } from '@qiraa/projections';
import { AUDIT_RECORDED, type AuditRecordedData } from '../events';

/** Every AuditRecorded event becomes one audit_log row; replaying an event changes nothing. */
export const auditLogProjection = defineProjection({
  name: 'audit_log',
  version: 1,
  handles: [AUDIT_RECORDED],
  tables: ['audit_log'],
  async apply({ sql, table }, event) {
    const d = event.data as AuditRecordedData;
    await sql`
      insert into ${sql(table('audit_log'))}
        (id, event_id, event_type, organization_id, actor_user_id, target_student_id, target_class_id,
         detail, occurred_at, recorded_at)
      values (${d.auditId ?? `audit:${event.eventId}`}, ${event.eventId}, ${d.eventType}, ${d.organizationId},
              ${d.actorUserId}, ${d.targetStudentId ?? null}, ${d.targetClassId ?? null},
              ${sql.json(d.detail ?? {})}, ${d.occurredAt}, ${event.createdAt})
      on conflict do nothing`;
  },
});
