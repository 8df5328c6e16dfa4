import type { Reaction } from '@qiraa/projections';
import { alertsNotifier } from './alertsNotifier';

/** The training context's effects on other contexts: the teachers' notifications of alerts. */
export const TRAINING_REACTIONS: readonly Reaction[] = [alertsNotifier];
