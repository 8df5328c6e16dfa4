import { defineCommandContext } from '@qiraa/command-kit';
import { monitoringProjection } from './projections/monitoringProjection';
import { profileProjection } from './projections/profileProjection';
import { skillStatusProjection } from './projections/skillStatusProjection';
import { trainingSeedsProjection } from './projections/trainingSeedsProjection';

/**
 * Decisions' write side: the read models a recompute keeps up to date in its own transaction (each takes only
 * the types it handles: statuses, training seeds, monitoring, profiles).
 */
export const decisionsCommands = defineCommandContext({
  name: 'decisions',
  inline: [skillStatusProjection, trainingSeedsProjection, monitoringProjection, profileProjection],
});
