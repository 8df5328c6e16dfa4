import type { Projection } from '@qiraa/projections';

/** The training context's runner entries (read models `trn_levels`, `trn_days`). */
export const TRAINING_PROJECTIONS: readonly Projection[] = [];
