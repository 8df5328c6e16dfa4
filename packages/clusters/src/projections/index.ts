import { assignmentsProjection } from './assignmentsProjection';
import { bundleProgressReactor } from './bundleProgressReactor';
import { generationsProjection } from './generationsProjection';

export { assignmentsProjection, bundleProgressReactor, generationsProjection };
export const CLUSTERS_PROJECTIONS = [generationsProjection, assignmentsProjection, bundleProgressReactor] as const;
