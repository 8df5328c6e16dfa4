export { type Activation, type BulkActivateBody, bulkActivate } from './commands/bulkActivate';
export { type ClusterClass, classForRecompute } from './commands/classOf';
export {
  type BundleProgress,
  completionEngineEventId,
  creditBundleProgress,
  type StepGoalMet,
  stepEngineEventId,
} from './commands/creditBundleProgress';
export {
  type ClusterDeps,
  type Generation,
  minClusterSizeOf,
  recomputeClusters,
  recomputeInTransaction,
} from './commands/recomputeClusters';
export { clustersContext, clustersContextWith } from './context';
export type { ClusterInputsPort, StudentClusterInput, TierEvidence } from './engine/clusterInputs';
export { type ClusterDimensions, clusterKeyOf, parseClusterKey } from './engine/clusterKey';
export {
  type ClusterComputation,
  computeClusters,
  MORE_DATA_REASONS,
  type MoreDataReason,
} from './engine/computeClusters';
export { BUNDLE_ASSIGNED, CLUSTER_EVENT_TYPES, CLUSTER_GENERATION_COMPUTED, streams as clusterStreams } from './events';
export { CLUSTERS_PROJECTIONS } from './projections';
export { decisionsInputs } from './queries/decisionsInputs';
export { previewOf } from './queries/previewOf';
export { BUNDLE_PROGRESS_RULES } from './rules/bundleProgressRules';
export { CLUSTER_RULE_SETS, CURRENT_CLUSTER_RULE_SET, MERGE_L1_L2 } from './rules/ruleSet';
