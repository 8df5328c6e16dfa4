import { defineCommandContext } from '@qiraa/command-kit';
import { alertsProjection } from './projections/alertsProjection';
import { daysProjection } from './projections/daysProjection';
import { levelsProjection } from './projections/levelsProjection';
import { sendsProjection } from './projections/sendsProjection';

/**
 * Training's write side: the read models its commands keep up to date in their own transaction
 * (`handleCommand` applies each to what the append wrote; a projection skips types it does not handle).
 */
export const trainingCommands = defineCommandContext({
  name: 'training',
  inline: [alertsProjection, sendsProjection, levelsProjection, daysProjection],
});
