import { createHash } from 'node:crypto';
import type { ClusterComputation } from './computeClusters';

/**
 * The fingerprint of a computation (rule-set version, minimum size, clusters, both lists, dropped students):
 * a recompute whose fingerprint equals the class's current generation writes nothing (idempotent).
 * The computation's arrays are already in canonical order, so JSON of it is canonical.
 */
export function computationDigest(c: ClusterComputation): string {
  const canonical = JSON.stringify([
    c.ruleSetVersion,
    c.minClusterSize,
    c.clusters.map((k) => [k.clusterKey, k.memberStudentIds, k.ruleIds]),
    c.individualReview.map((r) => [r.studentId, r.alertIds]),
    c.moreDataNeeded.map((r) => [r.studentId, r.reason]),
    c.droppedStudentIds,
    c.recommendationIds,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}
