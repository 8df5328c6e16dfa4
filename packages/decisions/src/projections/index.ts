import type { Projection, Reaction } from '@qiraa/projections';
import { decisionRewardsReaction } from '../reactions/decisionRewardsReaction';
import { monitoringNotifier } from '../reactions/monitoringNotifier';
import { profileNotifier } from '../reactions/profileNotifier';
import { monitoringProjection } from './monitoringProjection';
import { profileProjection } from './profileProjection';
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
  profileProjection,
];

/**
 * The decisions context's effects on other contexts: the monitoring and profile notifiers (notifications) and
 * the rewards reaction (gamification: mastery credits and the voids' reversals).
 */
export const DECISIONS_REACTIONS: readonly Reaction[] = [monitoringNotifier, profileNotifier, decisionRewardsReaction];

export { skillStatusProjection, skillStatusReactor, trainingSeedsProjection };
