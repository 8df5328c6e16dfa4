import { type AnySql, inTransaction } from '@qiraa/db';
import { conflict, notFound, permissionDenied } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import { holds, inOrganizationOr404 } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { applyInline } from '@qiraa/projections';
import { alertStream, TRAINING_ALERT_ACKNOWLEDGED, type TrainingAlertAcknowledged } from './alertEvents';
import { alertsProjection } from './alertsProjection';

/** A teacher reaches a child through one of the child's active classes or a support group of theirs holding it. */
export async function teacherReachesChild(sql: AnySql, teacherUserId: number, studentId: number): Promise<boolean> {
  const [row] = await sql`
    select 1 from class_students s join class_teachers t on t.class_id = s.class_id
    where s.student_user_id = ${studentId} and s.active and t.teacher_user_id = ${teacherUserId}
    union all
    select 1 from trn_support_group_members m join trn_support_groups g on g.id = m.group_id
    where m.student_user_id = ${studentId} and g.owner_user_id = ${teacherUserId} and g.archived_at is null
    limit 1`;
  return row !== undefined;
}

const ATTEMPTS = 5;

/**
 * POST acknowledge: records once that a teacher who reaches the child saw the alert (level unchanged, no mastery
 * event). Tenant first (404), then the teacher's reach (403), then the state: resolved → 409 `already_resolved`
 * (checked first), acknowledged → 409 `already_acknowledged`. The append expects the stream version read, so a
 * resolution or another acknowledgement landing meanwhile is read again and answered by the state it left.
 */
export async function acknowledgeAlert(
  deps: Pick<ContextDeps, 'sql' | 'store'>,
  caller: Caller,
  alertId: string,
): Promise<{ alertId: string; acknowledgedAt: string }> {
  for (let attempt = 0; ; attempt++) {
    const outcome = await inTransaction(deps.sql, async (uow) => {
      const [alert] = await uow.sql<
        { organization_id: string | null; student_id: string; status: string; stream_version: string }[]
      >`select organization_id, student_id::text, status, stream_version::text from trn_alerts where alert_id = ${alertId}`;
      if (!alert) throw notFound('training alert');
      inOrganizationOr404(caller, alert.organization_id, 'training alert');
      const studentId = Number(alert.student_id);
      if (!holds(caller, 'VIEW_OWN_CLASSES') || !(await teacherReachesChild(uow.sql, caller.userId, studentId))) {
        throw permissionDenied('only a teacher who reaches the child acknowledges its training alerts');
      }
      if (alert.status === 'resolved') throw conflict('already_resolved', 'the alert was resolved by a level change');
      if (alert.status === 'acknowledged') throw conflict('already_acknowledged', 'the alert was acknowledged already');
      const acknowledgedAt = new Date().toISOString();
      const data: TrainingAlertAcknowledged = {
        alertId,
        studentId,
        organizationId: alert.organization_id,
        acknowledgedBy: caller.userId,
        acknowledgedAt,
      };
      const result = await deps.store.append(
        alertStream(alertId),
        [
          {
            type: TRAINING_ALERT_ACKNOWLEDGED,
            data,
            metadata: { organizationId: alert.organization_id, actorUserId: caller.userId },
          },
        ],
        { expected: BigInt(alert.stream_version), uow },
      );
      if (result.kind !== 'appended') return null;
      await applyInline(uow, alertsProjection, result.events);
      return { alertId, acknowledgedAt };
    });
    if (outcome) return outcome;
    if (attempt + 1 >= ATTEMPTS) throw conflict('concurrent_change', 'the alert changed meanwhile; retry');
  }
}
