import { writeStreams } from '@qiraa/command-kit';
import { inTransaction } from '@qiraa/db';
import { deterministicEventId } from '@qiraa/eventstore';
import { ApiError, permissionDenied, unprocessable } from '@qiraa/http-kit';
import { type Caller, taughtClassesOfStudents } from '@qiraa/identity';
import { clustersCommands } from '../commandContext';
import { BUNDLE_ASSIGNED, type BundleAssigned, streams } from '../events';
import type { ClusterClass } from './classOf';
import { type ClusterDeps, recomputeInTransaction } from './recomputeClusters';

export interface BulkActivateBody {
  clusterKey: string;
  confirmedMemberStudentIds: number[];
  memberAdjustments: unknown[];
}

export interface Activation {
  clusterKey: string;
  generationId: string;
  bundleId: string;
  activatedAt: string;
  assignments: { studentId: number; assignmentId: string }[];
}

/**
 * The class the confirmed members share, held by the calling teacher. Tenant (404) was checked by the route;
 * a member the teacher does not teach is 403; members of different classes are 422 `members_span_classes`.
 */
async function memberClassOf(deps: ClusterDeps, caller: Caller, studentIds: readonly number[]): Promise<ClusterClass> {
  const rows = await taughtClassesOfStudents(deps.sql, caller.userId, studentIds);
  const classesOf = new Map<number, Set<string>>();
  for (const r of rows) {
    const set = classesOf.get(r.studentId) ?? new Set<string>();
    set.add(r.classId);
    classesOf.set(r.studentId, set);
  }
  if (studentIds.some((id) => !classesOf.has(id))) {
    throw permissionDenied('a teacher activates bundles only for students of a class they hold');
  }
  const [first, ...rest] = studentIds.map((id) => classesOf.get(id)!);
  const shared = [...first!].filter((c) => rest.every((s) => s.has(c))).sort();
  if (shared.length === 0) {
    throw unprocessable('members_span_classes', 'the confirmed members must belong to one class', [
      { field: 'confirmedMemberStudentIds', issue: 'members of different classes' },
    ]);
  }
  const row = rows.find((r) => r.classId === shared[0])!;
  return { classId: row.classId, organizationId: row.organizationId, schoolId: row.schoolId };
}

/**
 * POST /api/cluster/bulk-activate: all or nothing. Inside one transaction the class's clusters are computed
 * afresh (the recompute's lock, so a parallel recompute or activation waits); a named student the fresh
 * compute excludes is 422 `EXCLUDED_MEMBER`; a cluster whose key is gone or whose members differ from the
 * confirmed ones (the key carries the delivery mode) is 409 `CLUSTER_STALE`; either rolls back every write.
 * Otherwise one BundleAssigned per member, pinned to the fresh generation. The parents are told after commit, by
 * the `clusters_parent_notifier` reaction (reactions/parentNotifier.ts).
 */
export async function bulkActivate(deps: ClusterDeps, caller: Caller, body: BulkActivateBody): Promise<Activation> {
  if (body.memberAdjustments.length > 0) {
    throw new ApiError(422, 'MEMBER_ADJUSTMENTS_NOT_SUPPORTED', 'member adjustments are not supported; send []', {
      details: [{ field: 'memberAdjustments', issue: 'must be empty' }],
    });
  }
  const confirmed = [...new Set(body.confirmedMemberStudentIds)].sort((a, b) => a - b);
  const cls = await memberClassOf(deps, caller, confirmed);
  const activation = await inTransaction(deps.sql, async (uow) => {
    const generation = await recomputeInTransaction(deps, uow, cls);
    const c = generation.computation;
    const excluded = [
      ...c.individualReview.filter((r) => confirmed.includes(r.studentId)).map((r) => r.studentId),
      ...c.moreDataNeeded.filter((r) => confirmed.includes(r.studentId)).map((r) => r.studentId),
    ];
    if (excluded.length > 0) {
      throw new ApiError(422, 'EXCLUDED_MEMBER', 'a confirmed member is excluded from clustering', {
        details: excluded.map((id) => ({ field: 'confirmedMemberStudentIds', issue: `student ${id} is excluded` })),
      });
    }
    const cluster = c.clusters.find((k) => k.clusterKey === body.clusterKey);
    if (!cluster || cluster.memberStudentIds.join(',') !== confirmed.join(',')) {
      throw new ApiError(409, 'CLUSTER_STALE', 'the cluster changed since it was shown; recompute and confirm again', {
        reason: cluster ? 'membership_changed' : 'cluster_gone',
      });
    }
    const activatedAt = (deps.now?.() ?? new Date()).toISOString();
    const appends = confirmed.map((studentId) => {
      const data: BundleAssigned = {
        studentId,
        classId: cls.classId,
        bundleId: cluster.bundleId,
        clusterKey: cluster.clusterKey,
        generationId: generation.generationId,
        ruleSetVersion: c.ruleSetVersion,
        activatedBy: caller.userId,
        activatedAt,
      };
      const eventId = deterministicEventId('bundle-assignment', studentId, generation.generationId, cluster.clusterKey);
      return { streamId: streams.assignments(studentId), events: [{ eventId, type: BUNDLE_ASSIGNED, data }] };
    });
    // An assignment stored already (an activation repeated after a crash) is a duplicate, written once.
    await writeStreams(deps.store, uow, clustersCommands, appends);
    return {
      clusterKey: cluster.clusterKey,
      generationId: generation.generationId,
      bundleId: cluster.bundleId,
      activatedAt,
      assignments: appends.map((a) => ({
        studentId: a.events[0]!.data.studentId,
        assignmentId: a.events[0]!.eventId,
      })),
    };
  });
  return activation;
}
