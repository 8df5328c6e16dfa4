import type { Sql } from '@qiraa/db';
import type { EventStore, OfType, Recorded } from '@qiraa/eventstore';
import { activeClassesOfStudent } from '@qiraa/identity';
import { dispatchToClass, isDispatchRefusal, TRAINING_SOURCE_ENTITY_TYPE } from '@qiraa/notifications';
import { defineReaction } from '@qiraa/projections';
import type { TrainingEvent } from '../events';
import { TRAINING_ALERT_RAISED } from '../events/alertEvents';
import { NOTIFICATION_KIND_OF, payloadOf } from '../queries/alertPresentation';

type RaisedEvent = OfType<TrainingEvent, typeof TRAINING_ALERT_RAISED>;

/**
 * Sends a raised alert to every ClassTeacher of each of the child's active classes (`dispatchToClass`), once:
 * a ledger row per alert and class (`trn_alert_dispatches`) is written after the fan-out and a class already in
 * the ledger is skipped, so a re-delivered event notifies nobody again. A failure throws: the reaction retries
 * it, then parks it (never a silent `refused`); the classes already sent stay in the ledger meanwhile.
 */
async function notify(deps: { sql: Sql; store: EventStore }, e: Recorded<RaisedEvent>): Promise<void> {
  const d = e.data;
  const kind = NOTIFICATION_KIND_OF[d.kind];
  // The student's active classes (identity's read) not yet in this alert's ledger, in class id order.
  const [active, dispatched] = await Promise.all([
    activeClassesOfStudent(deps.sql, d.studentId),
    deps.sql<{ class_id: string }[]>`select class_id from trn_alert_dispatches where alert_id = ${d.alertId}`,
  ]);
  const done = new Set(dispatched.map((x) => x.class_id));
  const classes = active
    .filter((c) => !done.has(c.classId))
    .map((c) => ({ class_id: c.classId, full_name_ar: c.studentName }));
  for (const c of classes) {
    const facts = { ...d, studentName: c.full_name_ar, daysAtLevel: d.evidence.daysAtLevel };
    const result = await dispatchToClass(deps, c.class_id, {
      kind,
      payload: await payloadOf(deps.sql, facts, c.class_id),
      sourceEntity: { sourceEntityType: TRAINING_SOURCE_ENTITY_TYPE, sourceEntityId: d.alertId },
      // A crash between the fan-out and the ledger write re-sends nothing: the same alert and class.
      dedupeKey: `${e.eventId}:${c.class_id}`,
    });
    await deps.sql`
      insert into trn_alert_dispatches (alert_id, class_id, kind, outcome)
      values (${d.alertId}, ${c.class_id}, ${kind}, ${result.outcome}) on conflict do nothing`;
  }
}

/**
 * The training alerts notifier: a reaction to `TrainingAlertRaised` (notifications tolerate its sub-second
 * delay). Dispatch commits on its own, so the ledger and the dispatch key keep an alert from being sent twice.
 */
export const alertsNotifier = defineReaction<RaisedEvent>({
  name: 'training_alerts_notifier',
  handles: [TRAINING_ALERT_RAISED],
  handle: (deps, e) => notify(deps, e),
  permanent: isDispatchRefusal,
});
