import type { Projection } from '@qiraa/projections';
import { ALERT_PROJECTIONS } from '../alerts';

/** The training context's runner entries (read models `trn_levels`, `trn_days`). */
export const TRAINING_PROJECTIONS: readonly Projection[] = [...ALERT_PROJECTIONS];
