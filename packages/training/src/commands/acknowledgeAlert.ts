import { type Decider, handleCommand } from '@qiraa/command-kit';
import type { AnySql } from '@qiraa/db';
import type { NewEvent } from '@qiraa/eventstore';
import { conflict, notFound, permissionDenied } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import { holds, inOrganizationOr404, taughtStudentsQuery } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { trainingCommands } from '../commandContext';
import { trainingEvents } from '../events';
import {
  alertStream,
  TRAINING_ALERT_ACKNOWLEDGED,
  TRAINING_ALERT_RAISED,
  TRAINING_ALERT_RESOLVED,
  type TrainingAlertAcknowledged,
} from '../events/alertEvents';

/** A teacher reaches a child through one of the child's active classes or a support group of theirs holding it. */
export async function teacherReachesChild(sql: AnySql, teacherUserId: number, studentId: number): Promise<boolean> {
  const [row] = await sql`
    select 1 where ${studentId}::bigint in (${taughtStudentsQuery(sql, teacherUserId)})
    union all
    select 1 from trn_support_group_members m join trn_support_groups g on g.id = m.group_id
    where m.student_user_id = ${studentId} and g.owner_user_id = ${teacherUserId} and g.archived_at is null
    limit 1`;
  return row !== undefined;
}

/** One alert as an acknowledgement decides on it; `callerReaches` is read beside it for the caller. */
export interface AlertState {
  readonly alert: {
    readonly organizationId: string | null;
    readonly studentId: number;
    readonly status: 'open' | 'acknowledged' | 'resolved' | string;
  } | null;
  readonly callerReaches: boolean;
}

export interface AcknowledgeAlert {
  readonly alertId: string;
  readonly caller: Caller;
  readonly acknowledgedAt: string;
}

/**
 * The acknowledgement's rules. Tenant first (404), then the teacher's reach (403), then the state: resolved →
 * 409 `already_resolved` (checked first), acknowledged → 409 `already_acknowledged`.
 */
export const acknowledgeAlertDecider: Decider<AcknowledgeAlert, NewEvent<TrainingAlertAcknowledged>, AlertState> = {
  initialState: () => ({ alert: null, callerReaches: false }),
  evolve(state, recorded) {
    const [event] = trainingEvents([recorded]);
    if (!event) return state;
    if (event.type === TRAINING_ALERT_RAISED) {
      const raised = event.data;
      const alert = { organizationId: raised.organizationId, studentId: raised.studentId, status: 'open' };
      return { ...state, alert };
    }
    if (!state.alert) return state;
    if (event.type === TRAINING_ALERT_ACKNOWLEDGED)
      return { ...state, alert: { ...state.alert, status: 'acknowledged' } };
    if (event.type === TRAINING_ALERT_RESOLVED) return { ...state, alert: { ...state.alert, status: 'resolved' } };
    return state;
  },
  decide({ alertId, caller, acknowledgedAt }, { alert, callerReaches }) {
    if (!alert) throw notFound('training alert');
    inOrganizationOr404(caller, alert.organizationId, 'training alert');
    if (!holds(caller, 'VIEW_OWN_CLASSES') || !callerReaches) {
      throw permissionDenied('only a teacher who reaches the child acknowledges its training alerts');
    }
    if (alert.status === 'resolved') throw conflict('already_resolved', 'the alert was resolved by a level change');
    if (alert.status === 'acknowledged') throw conflict('already_acknowledged', 'the alert was acknowledged already');
    const data: TrainingAlertAcknowledged = {
      alertId,
      studentId: alert.studentId,
      organizationId: alert.organizationId,
      acknowledgedBy: caller.userId,
      acknowledgedAt,
    };
    return [
      {
        type: TRAINING_ALERT_ACKNOWLEDGED,
        data,
        metadata: { organizationId: alert.organizationId, actorUserId: caller.userId },
      },
    ];
  },
};

/**
 * POST acknowledge: records once that a teacher who reaches the child saw the alert (level unchanged, no mastery
 * event). Decided on the `trn_alerts` row at the stream version it reflects, read in the command's transaction
 * with the caller's reach; a resolution or another acknowledgement landing meanwhile is a conflict, read again
 * and answered by the state it left.
 */
export async function acknowledgeAlert(
  deps: Pick<ContextDeps, 'sql' | 'store' | 'clock'>,
  caller: Caller,
  alertId: string,
): Promise<{ alertId: string; acknowledgedAt: string }> {
  const acknowledgedAt = deps.clock.now().toISOString();
  await handleCommand(deps, {
    context: trainingCommands,
    streamId: alertStream(alertId),
    decider: acknowledgeAlertDecider,
    command: { alertId, caller, acknowledgedAt },
    load: {
      name: 'trn_alerts row and the caller’s reach',
      inTransaction: true,
      async load(uow) {
        const [row] = await uow.sql<
          { organization_id: string | null; student_id: string; status: string; stream_version: string }[]
        >`select organization_id, student_id::text, status, stream_version::text from trn_alerts where alert_id = ${alertId}`;
        if (!row) return { state: acknowledgeAlertDecider.initialState(), version: 'any' };
        const alert = { organizationId: row.organization_id, studentId: Number(row.student_id), status: row.status };
        // The reach matters only for a teacher of the alert's organization (the decider asks in that order).
        const callerReaches =
          holds(caller, 'VIEW_OWN_CLASSES') && (await teacherReachesChild(uow.sql, caller.userId, alert.studentId));
        return { state: { alert, callerReaches }, version: BigInt(row.stream_version) };
      },
    },
    onConflict: () => conflict('concurrent_change', 'the alert changed meanwhile; retry'),
  });
  return { alertId, acknowledgedAt };
}
