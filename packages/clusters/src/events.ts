import type { ClusterComputation } from './engine/computeClusters';

export const CLUSTER_GENERATION_COMPUTED = 'ClusterGenerationComputed';
export const BUNDLE_ASSIGNED = 'BundleAssigned';
export const CLUSTER_EVENT_TYPES = [CLUSTER_GENERATION_COMPUTED, BUNDLE_ASSIGNED] as const;

export const streams = {
  /** Every generation of a class's clusters, append-only. */
  generations: (classId: string) => `clustergen-${classId}`,
  /** Every bundle assigned to a student by a bulk activation. */
  assignments: (studentId: number) => `bundleassign-${studentId}`,
};

/** One generation: the whole computation, the rule-set version that fixed it and when it expires (CLU-08). */
export interface ClusterGenerationComputed extends ClusterComputation {
  classId: string;
  organizationId: string;
  digest: string;
  createdAt: string;
  expiresAt: string;
}

/**
 * The clusters context's events, typed: `type` discriminates `data` (docs/architecture.md, "Typed events").
 * Add an event here with its constant and its data interface.
 */
export type ClusterEvent =
  | { type: typeof CLUSTER_GENERATION_COMPUTED; data: ClusterGenerationComputed }
  | { type: typeof BUNDLE_ASSIGNED; data: BundleAssigned };

/** One bundle assignment of a bulk activation, pinned to the fresh generation it was checked against. */
export interface BundleAssigned {
  studentId: number;
  classId: string;
  bundleId: string;
  clusterKey: string;
  generationId: string;
  ruleSetVersion: string;
  activatedBy: number;
  activatedAt: string;
}
