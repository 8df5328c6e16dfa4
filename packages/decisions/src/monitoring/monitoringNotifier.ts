import type { Sql } from '@qiraa/db';
import type { EventStore, RecordedEvent } from '@qiraa/eventstore';
import { dispatchToClass } from '@qiraa/notifications';
import { defineProjection } from '@qiraa/projections';
import {
  ALERT_EVENT_TYPES,
  lifecycleOf,
  type MonitoringAlertChanged,
  REGRESSION_ALERT_RAISED,
} from './monitoringEvents';

/** The notifications one alert step sends to each of the child's classes (docs/decisions-monitoring.md). */
export function notificationsOf(e: RecordedEvent): { kind: 'student_alert_assigned' | 'cbm_alert_lifecycle' }[] {
  // An acute regression is the urgent one: the child's teachers are assigned to look at it today.
  const urgent = e.type === REGRESSION_ALERT_RAISED && (e.data as MonitoringAlertChanged).transition === 0;
  return [...(urgent ? [{ kind: 'student_alert_assigned' as const }] : []), { kind: 'cbm_alert_lifecycle' as const }];
}

interface Child {
  class_id: string;
  full_name_ar: string;
}

/**
 * Sends an alert step's notifications through the notifications context's dispatch to every ClassTeacher of
 * each of the child's active classes (`dispatchToClass`), once: a ledger row per step, class and kind
 * (`dec_alert_dispatches`) is written after the fan-out, and a step already in the ledger is skipped, so a
 * re-delivered batch or a rebuild notifies nobody again. A refused dispatch (a payload or language-safety
 * refusal) is logged in the ledger as `refused` and never retried: it would be refused again. A crash between
 * the fan-out and the ledger write re-sends nothing either: the dispatch key (step, class) makes the second
 * dispatch a duplicate.
 */
async function notify(deps: { sql: Sql; store: EventStore }, e: RecordedEvent): Promise<void> {
  const d = e.data as MonitoringAlertChanged;
  const wanted = notificationsOf(e);
  const children = await deps.sql<Child[]>`
    select cs.class_id, u.full_name_ar from class_students cs join users u on u.id = cs.student_user_id
    where cs.student_user_id = ${d.studentId} and cs.active order by cs.class_id`;
  const done = await deps.sql<{ class_id: string; kind: string }[]>`
    select class_id, kind from dec_alert_dispatches where transition_event_id = ${e.eventId}`;
  for (const child of children) {
    for (const { kind } of wanted) {
      if (done.some((r) => r.class_id === child.class_id && r.kind === kind)) continue;
      const child_ = { studentId: String(d.studentId), classId: child.class_id, studentName: child.full_name_ar };
      const payload =
        kind === 'student_alert_assigned'
          ? { ...child_, alertId: d.alertId }
          : { ...child_, alertId: d.alertId, lifecycle: lifecycleOf(e.type) };
      let outcome: 'fanned_out' | 'no_recipients' | 'refused';
      try {
        const result = await dispatchToClass(deps, child.class_id, {
          kind,
          payload,
          sourceEntity: { sourceEntityType: 'monitoring_alert', sourceEntityId: d.alertId },
          dedupeKey: `${e.eventId}:${child.class_id}`,
        });
        outcome = result.outcome;
      } catch {
        outcome = 'refused';
      }
      await deps.sql`
        insert into dec_alert_dispatches (transition_event_id, class_id, kind, outcome)
        values (${e.eventId}, ${child.class_id}, ${kind}, ${outcome}) on conflict do nothing`;
    }
  }
}

/**
 * The monitoring notifier: a checkpointed consumer of the alert events (the projection runner runs it like
 * any projection; notifications tolerate its sub-second delay). Dispatch commits on its own connection, so the
 * ledger, not the checkpoint, is what keeps a step from being sent twice. It owns no table: a rebuild replays
 * every step and the ledger skips them all.
 */
export const monitoringNotifier = defineProjection({
  name: 'decisions_monitoring_notifier',
  version: 1,
  handles: ALERT_EVENT_TYPES,
  tables: [],
  async applyBatch({ runner }, events) {
    if (!runner) return; // inline application never notifies: the runner does, once the decision committed
    for (const e of events) await notify(runner, e);
  },
});
