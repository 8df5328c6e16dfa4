import { loadCatalog } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import type { EventStore, RecordedEvent } from '@qiraa/eventstore';
import { dispatch, dispatchToClass, type FanOutResult } from '@qiraa/notifications';
import { defineProjection } from '@qiraa/projections';
import {
  BUNDLE_RECOMMENDED,
  type BundleRecommendationDecided,
  PROFILE_RESOLVED,
  type ProfileResolved,
} from './profileEvents';

type Outcome = 'fanned_out' | 'no_recipients' | 'refused';
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

async function guarded(run: () => Promise<FanOutResult | { outcome: 'no_recipients' }>): Promise<Outcome> {
  try {
    return (await run()).outcome;
  } catch {
    // A payload or language-safety refusal: it would be refused again, so the ledger keeps it and moves on.
    return 'refused';
  }
}

async function notify(deps: Deps, e: RecordedEvent): Promise<void> {
  const done = await deps.sql<{ target: string; kind: string }[]>`
    select target, kind from dec_profile_dispatches where event_id = ${e.eventId}`;
  const sent = (target: string, kind: string) => done.some((r) => r.target === target && r.kind === kind);
  const ledger = (target: string, kind: string, outcome: Outcome) => deps.sql`
    insert into dec_profile_dispatches (event_id, target, kind, outcome)
    values (${e.eventId}, ${target}, ${kind}, ${outcome}) on conflict do nothing`;
  const studentId = (e.data as { studentId: number }).studentId;
  const children = await deps.sql<Child[]>`
    select cs.class_id, u.full_name_ar from class_students cs join users u on u.id = cs.student_user_id
    where cs.student_user_id = ${studentId} and cs.active order by cs.class_id`;

  if (e.type === BUNDLE_RECOMMENDED) {
    const d = e.data as BundleRecommendationDecided;
    if (!wantsSkillAlert(d)) return;
    const kind = 'skill_alert_assigned';
    const skill = (await loadCatalog(deps.sql)).skillById.get(d.anchorSkillId ?? '');
    for (const child of children) {
      if (sent(child.class_id, kind)) continue;
      const outcome = await guarded(() =>
        dispatchToClass(deps, child.class_id, {
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
        }),
      );
      await ledger(child.class_id, kind, outcome);
    }
    return;
  }

  if (e.type === PROFILE_RESOLVED) {
    const d = e.data as ProfileResolved;
    const kind = 'benchmark_profile_swap';
    if (!wantsProfileSwap(d) || sent('admins', kind)) return;
    const child = children[0];
    const admins = await deps.sql<{ id: string }[]>`
      select id::text from users
      where organization_id = ${d.organizationId} and primary_persona = 'ADMIN' and disabled_at is null order by id`;
    const outcome = await guarded(async () => {
      if (!child || admins.length === 0) return { outcome: 'no_recipients' as const };
      const results = [];
      for (const admin of admins) {
        results.push(
          await dispatch(deps, {
            recipientUserId: Number(admin.id),
            kind,
            payload: {
              studentId: String(studentId),
              classId: child.class_id,
              studentName: child.full_name_ar,
              fromProfileCode: d.previousProfileCode,
              toProfileCode: d.profileCode,
            },
            sourceEntity: { sourceEntityType: 'profile_decision', sourceEntityId: d.profileDecisionId },
          }),
        );
      }
      return { outcome: 'fanned_out' as const, results };
    });
    await ledger('admins', kind, outcome);
  }
}

/**
 * The profile notifier: a checkpointed consumer of the profile and recommendation events (the projection
 * runner runs it like any projection). Dispatch commits on its own connection, so the ledger
 * (`dec_profile_dispatches`, one row per event, target and kind), not the checkpoint, keeps an event from being
 * sent twice: a re-delivered batch, a rebuild or a recompute notifies nobody again. It owns no table.
 */
export const profileNotifier = defineProjection({
  name: 'decisions_profiles_notifier',
  version: 1,
  handles: [PROFILE_RESOLVED, BUNDLE_RECOMMENDED],
  tables: [],
  async applyBatch({ runner }, events) {
    if (!runner) return; // inline application never notifies: the runner does, once the decision committed
    for (const e of events) await notify(runner, e);
  },
});
