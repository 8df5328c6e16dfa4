import type { Projection } from '@qiraa/projections';
import { alertsProjection } from './alertsProjection';
import { alertsReactor } from './alertsReactor';
import { daysProjection } from './daysProjection';
import { levelsProjection } from './levelsProjection';
import { sendsProjection } from './sendsProjection';

/**
 * The training context's runner entries: read models `trn_levels`, `trn_days`, `trn_answers`, `trn_support_steps`;
 * the alerts' reactor (stays, raise, resolve) and their read model; the teachers' sends.
 */
export const TRAINING_PROJECTIONS: readonly Projection[] = [
  levelsProjection,
  daysProjection,
  alertsReactor,
  alertsProjection,
  sendsProjection,
];

export { daysProjection, levelsProjection };
