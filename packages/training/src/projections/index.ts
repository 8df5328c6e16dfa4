import type { Projection } from '@qiraa/projections';
import { ALERT_PROJECTIONS } from '../alerts';
import { daysProjection } from './daysProjection';
import { levelsProjection } from './levelsProjection';

/** The training context's runner entries (read models `trn_levels`, `trn_days`, `trn_answers`, `trn_support_steps`, and the alerts part's). */
export const TRAINING_PROJECTIONS: readonly Projection[] = [levelsProjection, daysProjection, ...ALERT_PROJECTIONS];

export { daysProjection, levelsProjection };
