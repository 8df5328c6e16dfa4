import { assignmentsProjection } from './assignmentsProjection';
import { bundleProgressReactor } from './bundleProgressReactor';
import { generationsProjection } from './generationsProjection';

export { assignmentsProjection, bundleProgressReactor, generationsProjection };
export const CLUSTERS_PROJECTIONS = [generationsProjection, assignmentsProjection] as const;
/** Clusters' effect on gamification: bundle credits from decisions. */
export const CLUSTERS_REACTIONS = [bundleProgressReactor] as const;
