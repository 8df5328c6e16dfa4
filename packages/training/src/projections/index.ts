import type { Projection } from '@qiraa/projections';
import { daysProjection } from './daysProjection';
import { levelsProjection } from './levelsProjection';

/** The training context's runner entries (read models `trn_levels`, `trn_days`, `trn_answers`, `trn_support_steps`). */
export const TRAINING_PROJECTIONS: readonly Projection[] = [levelsProjection, daysProjection];

export { daysProjection, levelsProjection };
