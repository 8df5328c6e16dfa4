import { assignmentsProjection } from './assignmentsProjection';
import { generationsProjection } from './generationsProjection';

export { assignmentsProjection, generationsProjection };
export const CLUSTERS_PROJECTIONS = [generationsProjection, assignmentsProjection] as const;
