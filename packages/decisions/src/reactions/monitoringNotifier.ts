import type { Sql } from '@qiraa/db';
import type { EventStore, OfType, Recorded } from '@qiraa/eventstore';
import { activeClassesOfStudent } from '@qiraa/identity';
import { dispatchToClass, isDispatchRefusal } from '@qiraa/notifications';
import { defineReaction } from '@qiraa/projections';
import type { DecisionEvent } from '../events';
import { ALERT_EVENT_TYPES, lifecycleOf, REGRESSION_ALERT_RAISED } from '../events/monitoringEvents';

type AlertEvent = OfType<DecisionEvent, (typeof ALERT_EVENT_TYPES)[number]>;

/** The notifications one alert step sends to each of the child's classes (docs/decisions-monitoring.md). */
export function notificationsOf(e: Recorded<AlertEvent>): { kind: 'student_alert_assigned' | 'cbm_alert_lifecycle' }[] {
  // An acute regression is the urgent one: the child's teachers are assigned to look at it today.
  const urgent = e.type === REGRESSION_ALERT_RAISED && e.data.transition === 0;
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
 * re-delivered event notifies nobody again. A failure throws: the reaction retries it, then parks it (never a
 * silent `refused`). A crash between the fan-out and the ledger write re-sends nothing either: the dispatch key
 * (step, class) makes the second dispatch a duplicate.
 */
async function notify(deps: { sql: Sql; store: EventStore }, e: Recorded<AlertEvent>): Promise<void> {
  const d = e.data;
  const wanted = notificationsOf(e);
  const children: Child[] = (await activeClassesOfStudent(deps.sql, d.studentId)).map((c) => ({
    class_id: c.classId,
    full_name_ar: c.studentName,
  }));
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
      const result = await dispatchToClass(deps, child.class_id, {
        kind,
        payload,
        sourceEntity: { sourceEntityType: 'monitoring_alert', sourceEntityId: d.alertId },
        dedupeKey: `${e.eventId}:${child.class_id}`,
      });
      await deps.sql`
        insert into dec_alert_dispatches (transition_event_id, class_id, kind, outcome)
        values (${e.eventId}, ${child.class_id}, ${kind}, ${result.outcome}) on conflict do nothing`;
    }
  }
}

/**
 * The monitoring notifier: a reaction to the alert events (notifications tolerate its sub-second delay).
 * Dispatch commits on its own, so the ledger and the dispatch key, not the checkpoint, keep a step from being
 * sent twice.
 */
export const monitoringNotifier = defineReaction<AlertEvent>({
  name: 'decisions_monitoring_notifier',
  handles: ALERT_EVENT_TYPES,
  handle: (deps, e) => notify(deps, e),
  permanent: isDispatchRefusal,
});
