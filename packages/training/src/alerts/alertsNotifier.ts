import type { Sql } from '@qiraa/db';
import type { EventStore, RecordedEvent } from '@qiraa/eventstore';
import { dispatchToClass, TRAINING_SOURCE_ENTITY_TYPE } from '@qiraa/notifications';
import { defineProjection } from '@qiraa/projections';
import { TRAINING_ALERT_RAISED, type TrainingAlertRaised } from './alertEvents';
import { NOTIFICATION_KIND_OF, payloadOf } from './alertPresentation';

/**
 * Sends a raised alert to every ClassTeacher of each of the child's active classes (`dispatchToClass`), once:
 * a ledger row per alert and class (`trn_alert_dispatches`) is written after the fan-out and a class already in
 * the ledger is skipped, so a re-delivered batch or a rebuild notifies nobody again. A refused dispatch (payload
 * or language safety) is kept as `refused` and not retried: it would be refused again.
 */
async function notify(deps: { sql: Sql; store: EventStore }, e: RecordedEvent): Promise<void> {
  const d = e.data as TrainingAlertRaised;
  const kind = NOTIFICATION_KIND_OF[d.kind];
  const classes = await deps.sql<{ class_id: string; full_name_ar: string }[]>`
    select cs.class_id, u.full_name_ar from class_students cs join users u on u.id = cs.student_user_id
    where cs.student_user_id = ${d.studentId} and cs.active
      and not exists (select 1 from trn_alert_dispatches x where x.alert_id = ${d.alertId} and x.class_id = cs.class_id)
    order by cs.class_id`;
  for (const c of classes) {
    const facts = { ...d, studentName: c.full_name_ar, daysAtLevel: d.evidence.daysAtLevel };
    let outcome: 'fanned_out' | 'no_recipients' | 'refused';
    try {
      const result = await dispatchToClass(deps, c.class_id, {
        kind,
        payload: await payloadOf(deps.sql, facts, c.class_id),
        sourceEntity: { sourceEntityType: TRAINING_SOURCE_ENTITY_TYPE, sourceEntityId: d.alertId },
        // A crash between the fan-out and the ledger write re-sends nothing: the same alert and class.
        dedupeKey: `${e.eventId}:${c.class_id}`,
      });
      outcome = result.outcome;
    } catch {
      outcome = 'refused';
    }
    await deps.sql`
      insert into trn_alert_dispatches (alert_id, class_id, kind, outcome)
      values (${d.alertId}, ${c.class_id}, ${kind}, ${outcome}) on conflict do nothing`;
  }
}

/**
 * The training alerts notifier: a checkpointed consumer of `TrainingAlertRaised` (notifications tolerate its
 * sub-second delay). Dispatch commits on its own connection, so the ledger, not the checkpoint, keeps an alert
 * from being sent twice. It owns no table.
 */
export const alertsNotifier = defineProjection({
  name: 'training_alerts_notifier',
  version: 1,
  handles: [TRAINING_ALERT_RAISED],
  tables: [],
  async applyBatch({ runner }, events) {
    if (!runner) return; // inline application never notifies
    for (const e of events) await notify(runner, e);
  },
});
