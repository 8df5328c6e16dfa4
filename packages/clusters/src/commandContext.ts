import { defineCommandContext } from '@qiraa/command-kit';
import { assignmentsProjection } from './projections/assignmentsProjection';
import { generationsProjection } from './projections/generationsProjection';

/** Clusters' write side: a generation and the bundle assignments are read back in the request that wrote them. */
export const clustersCommands = defineCommandContext({
  name: 'clusters',
  inline: [generationsProjection, assignmentsProjection],
});
