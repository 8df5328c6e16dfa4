import { loadCatalog } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import type { EventStore, OfType, Recorded } from '@qiraa/eventstore';
import { activeClassesOfStudent, organizationAdmins } from '@qiraa/identity';
import { dispatch, dispatchToClass, isDispatchRefusal } from '@qiraa/notifications';
import { defineReaction } from '@qiraa/projections';
import type { DecisionEvent } from '../events';
import {
  BUNDLE_RECOMMENDED,
  type BundleRecommendationDecided,
  PROFILE_RESOLVED,
  type ProfileResolved,
} from '../events/profileEvents';

type NotifiedEvent = OfType<DecisionEvent, typeof PROFILE_RESOLVED | typeof BUNDLE_RECOMMENDED>;
type Outcome = 'fanned_out' | 'no_recipients';
interface Deps {
  sql: Sql;
  store: EventStore;
}

/**
 * `skill_alert_assigned` (docs/decisions-profiles.md): a recommendation that names a support bundle (BRR-01) for a
 * focus profile (not PR2-01 ON_TRACK), other than the bundle the window's previous recommendation named. The
 * child's teachers are assigned the anchor skill; a recompute that keeps the bundle assigns nothing again.
 */
export function wantsSkillAlert(d: BundleRecommendationDecided): boolean {
  return d.outcome === 'recommended' && d.profileCode !== 'PR2-01' && d.bundleId !== d.previousBundleId;
}

/**
 * `benchmark_profile_swap` (to the organization's admins): a decided profile whose code differs from the
 * student's previous decided code (any window; the guard PR2-00 is neither side of a swap).
 */
export function wantsProfileSwap(d: ProfileResolved): boolean {
  return !d.doNotDecideYet && d.previousProfileCode !== null && d.previousProfileCode !== d.profileCode;
}

interface Child {
  class_id: string;
  full_name_ar: string;
}

async function notify(deps: Deps, e: Recorded<NotifiedEvent>): Promise<void> {
  const done = await deps.sql<{ target: string; kind: string }[]>`
    select target, kind from dec_profile_dispatches where event_id = ${e.eventId}`;
  const sent = (target: string, kind: string) => done.some((r) => r.target === target && r.kind === kind);
  const ledger = (target: string, kind: string, outcome: Outcome) => deps.sql`
    insert into dec_profile_dispatches (event_id, target, kind, outcome)
    values (${e.eventId}, ${target}, ${kind}, ${outcome}) on conflict do nothing`;
  const studentId = e.data.studentId;
  const children: Child[] = (await activeClassesOfStudent(deps.sql, studentId)).map((c) => ({
    class_id: c.classId,
    full_name_ar: c.studentName,
  }));

  if (e.type === BUNDLE_RECOMMENDED) {
    const d = e.data;
    if (!wantsSkillAlert(d)) return;
    const kind = 'skill_alert_assigned';
    const skill = (await loadCatalog(deps.sql)).skillById.get(d.anchorSkillId ?? '');
    for (const child of children) {
      if (sent(child.class_id, kind)) continue;
      const { outcome } = await dispatchToClass(deps, child.class_id, {
        kind,
        payload: {
          studentId: String(studentId),
          classId: child.class_id,
          studentName: child.full_name_ar,
          alertId: d.recommendationId,
          skillId: d.anchorSkillId,
          skillLabelAr: skill?.labelAr,
        },
        sourceEntity: { sourceEntityType: 'bundle_recommendation', sourceEntityId: d.recommendationId },
        dedupeKey: `${e.eventId}:${child.class_id}`,
      });
      await ledger(child.class_id, kind, outcome);
    }
    return;
  }

  if (e.type === PROFILE_RESOLVED) {
    const d = e.data;
    const kind = 'benchmark_profile_swap';
    if (!wantsProfileSwap(d) || sent('admins', kind)) return;
    const child = children[0];
    const admins = await organizationAdmins(deps.sql, d.organizationId);
    if (!child || admins.length === 0) {
      await ledger('admins', kind, 'no_recipients');
      return;
    }
    for (const admin of admins) {
      await dispatch(deps, {
        recipientUserId: admin,
        kind,
        payload: {
          studentId: String(studentId),
          classId: child.class_id,
          studentName: child.full_name_ar,
          fromProfileCode: d.previousProfileCode,
          toProfileCode: d.profileCode,
        },
        sourceEntity: { sourceEntityType: 'profile_decision', sourceEntityId: d.profileDecisionId },
        dedupeKey: e.eventId,
      });
    }
    const outcome: Outcome = 'fanned_out';
    await ledger('admins', kind, outcome);
  }
}

/**
 * The profile notifier: a reaction to the profile and recommendation events. Dispatch commits on its own, so
 * the ledger (`dec_profile_dispatches`, one row per event, target and kind) and the dispatch's dedupeKey (event,
 * target), not the checkpoint, keep an event from being sent twice. A failure throws: retried, then parked.
 */
export const profileNotifier = defineReaction<NotifiedEvent>({
  name: 'decisions_profiles_notifier',
  handles: [PROFILE_RESOLVED, BUNDLE_RECOMMENDED],
  handle: (deps, e) => notify(deps, e),
  permanent: isDispatchRefusal,
});
