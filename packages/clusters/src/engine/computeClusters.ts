import {
  type ClusterRuleSet,
  type ClusterTier,
  type DeliveryMode,
  MERGE_L1_L2,
  type ScaffoldTier,
} from '../rules/ruleSet';
import type { StudentClusterInput } from './clusterInputs';
import { type ClusterDimensions, clusterKeyOf } from './clusterKey';

/** Why a child is in moreDataNeeded (CLU-02), a closed list. */
export const MORE_DATA_REASONS = [
  'data_incomplete',
  'do_not_decide_yet',
  'blocked_insufficient_evidence',
  'no_recommendation',
] as const;
export type MoreDataReason = (typeof MORE_DATA_REASONS)[number];

export interface ComputedCluster extends ClusterDimensions {
  clusterKey: string;
  /** Ascending. */
  memberStudentIds: number[];
  /** The rule ids that placed the members: tier, mode, merge (when it applied), key, size. */
  ruleIds: string[];
}

export interface ClusterComputation {
  ruleSetVersion: string;
  minClusterSize: number;
  /** By clusterKey. */
  clusters: ComputedCluster[];
  individualReview: { studentId: number; alertIds: string[]; ruleId: 'CLU-01' }[];
  moreDataNeeded: { studentId: number; reason: MoreDataReason; ruleId: 'CLU-02' }[];
  /** Students of a cluster below the minimum size (CLU-07): in no list of the answer, kept for the record. */
  droppedStudentIds: number[];
  /** The recommendation ids the clusters rest on, sorted (the generation's evidence). */
  recommendationIds: string[];
}

/** CLU-03: the tier of a student, from the recommendation or the weakest skill-status token. */
export function tierOf(rules: ClusterRuleSet, input: StudentClusterInput): ScaffoldTier | null {
  if (input.recommendation?.scaffoldTier) return input.recommendation.scaffoldTier;
  return input.weakestStatus ? rules.tierOfToken[input.weakestStatus] : null;
}

/** CLU-04 and CLU-05: the delivery mode of a tier and the tier the cluster keys on. */
export function deliveryOf(
  rules: ClusterRuleSet,
  tier: ScaffoldTier,
): { mode: DeliveryMode; tier: ClusterTier; merged: boolean } {
  const mode = rules.deliveryModeOfTier[tier];
  const merged = rules.mergeForDeliveryModes.includes(mode) && (tier === 'Level_1' || tier === 'Level_2');
  return { mode, tier: merged ? MERGE_L1_L2 : tier, merged };
}

function moreDataReason(input: StudentClusterInput): MoreDataReason | null {
  if (input.profile?.dataIncomplete) return 'data_incomplete';
  if (input.profile?.doNotDecideYet) return 'do_not_decide_yet';
  const rec = input.recommendation;
  if (rec?.outcome === 'blocked_insufficient_evidence') return 'blocked_insufficient_evidence';
  if (rec?.outcome !== 'recommended' || !rec.bundleId || !rec.anchorSkillGroup) return 'no_recommendation';
  return null;
}

/**
 * The clusters of a class from its students' inputs, by a pinned rule set: a pure function, so a fresh
 * compute inside bulk activation and the stored generation agree exactly when the inputs do.
 */
export function computeClusters(
  rules: ClusterRuleSet,
  inputs: readonly StudentClusterInput[],
  minClusterSize: number = rules.minClusterSize.default,
): ClusterComputation {
  const sorted = [...inputs].sort((a, b) => a.studentId - b.studentId);
  const individualReview: ClusterComputation['individualReview'] = [];
  const moreDataNeeded: ClusterComputation['moreDataNeeded'] = [];
  const groups = new Map<string, { dims: ClusterDimensions; members: number[]; merged: boolean; recIds: string[] }>();
  for (const input of sorted) {
    if (input.acuteRegressionAlertIds.length > 0) {
      individualReview.push({
        studentId: input.studentId,
        alertIds: [...input.acuteRegressionAlertIds].sort(),
        ruleId: 'CLU-01',
      });
      continue;
    }
    const reason = moreDataReason(input);
    const tier = reason ? null : tierOf(rules, input);
    if (reason || !tier) {
      moreDataNeeded.push({ studentId: input.studentId, reason: reason ?? 'no_recommendation', ruleId: 'CLU-02' });
      continue;
    }
    const rec = input.recommendation!;
    const delivery = deliveryOf(rules, tier);
    const dims: ClusterDimensions = {
      bundleId: rec.bundleId!,
      anchorSkillGroup: rec.anchorSkillGroup!,
      scaffoldTier: delivery.tier,
      compatibleDeliveryMode: delivery.mode,
      sufficientData: rec.sufficientData,
    };
    const key = clusterKeyOf(dims);
    const group = groups.get(key) ?? { dims, members: [], merged: false, recIds: [] };
    group.members.push(input.studentId);
    group.merged ||= delivery.merged;
    if (rec.recommendationId) group.recIds.push(rec.recommendationId);
    groups.set(key, group);
  }
  const clusters: ComputedCluster[] = [];
  const droppedStudentIds: number[] = [];
  const recommendationIds: string[] = [];
  for (const [clusterKey, g] of [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (g.members.length < minClusterSize) {
      droppedStudentIds.push(...g.members);
      continue;
    }
    recommendationIds.push(...g.recIds);
    clusters.push({
      ...g.dims,
      clusterKey,
      memberStudentIds: g.members,
      ruleIds: ['CLU-03', 'CLU-04', ...(g.merged ? ['CLU-05'] : []), 'CLU-06', 'CLU-07'],
    });
  }
  return {
    ruleSetVersion: rules.version,
    minClusterSize,
    clusters,
    individualReview,
    moreDataNeeded,
    droppedStudentIds: droppedStudentIds.sort((a, b) => a - b),
    recommendationIds: recommendationIds.sort(),
  };
}
