import type { OfType } from '@qiraa/eventstore';
import { userNames } from '@qiraa/identity';
import { dispatchToStudent, isDispatchRefusal } from '@qiraa/notifications';
import { defineReaction } from '@qiraa/projections';
import { BUNDLE_ASSIGNED, type ClusterEvent } from '../events';

type AssignedEvent = OfType<ClusterEvent, typeof BUNDLE_ASSIGNED>;

/**
 * Clusters → notifications, as a reaction (issue 22, "no alert is lost"): each bundle assignment tells the
 * child's linked parents (`parent_tsp_activation`) after the activation commits. Before, the activation sent it
 * itself and swallowed any error, so a database error or the language rules unavailable lost it for good; now a
 * failure is retried, then parked and re-driven with `qiraa reactions retry clusters_parent_notifier`. The
 * assignment id (the event id) is the plan id and the dispatch key, so a re-delivery notifies nobody twice.
 */
export const parentNotifier = defineReaction<AssignedEvent>({
  name: 'clusters_parent_notifier',
  handles: [BUNDLE_ASSIGNED],
  async handle(deps, event) {
    const { studentId } = event.data;
    const names = await userNames(deps.sql, [studentId]);
    await dispatchToStudent(deps, studentId, {
      kind: 'parent_tsp_activation',
      payload: { studentId: String(studentId), studentName: names.get(studentId) ?? '', planId: event.eventId },
      sourceEntity: { sourceEntityType: 'bundle_assignment', sourceEntityId: event.eventId },
      dedupeKey: event.eventId,
    });
  },
  permanent: isDispatchRefusal,
});
