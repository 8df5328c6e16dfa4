import type { Projection } from '@qiraa/projections';
import { monitoringNotifier } from '../monitoring/monitoringNotifier';
import { monitoringProjection } from '../monitoring/monitoringProjection';
import { profileNotifier } from '../profiles/profileNotifier';
import { profileProjection } from '../profiles/profileProjection';
import { skillStatusProjection } from './skillStatusProjection';
import { skillStatusReactor } from './skillStatusReactor';
import { trainingSeedsProjection } from './trainingSeedsProjection';

/**
 * The decisions context's runner entries: the reactor over the assessment's evidence (appends decisions) and
 * the read model of those decisions.
 */
export const DECISIONS_PROJECTIONS: readonly Projection[] = [
  skillStatusReactor,
  skillStatusProjection,
  trainingSeedsProjection,
  monitoringProjection,
  monitoringNotifier,
  profileProjection,
  profileNotifier,
];

export { skillStatusProjection, skillStatusReactor, trainingSeedsProjection };
