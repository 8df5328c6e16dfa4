import type { Reaction } from '@qiraa/projections';
import { alertsNotifier } from './alertsNotifier';
import { levelRewardsReaction } from './levelRewardsReaction';

/** The training context's effects on other contexts: the teachers' notifications of alerts, the level-up credits. */
export const TRAINING_REACTIONS: readonly Reaction[] = [alertsNotifier, levelRewardsReaction];
export { levelRewardsReaction };
