import { defineCommandContext } from '@qiraa/command-kit';
import { practiceProjection } from './projections/practiceProjection';

/**
 * Sessions' write side: the read models its commands keep up to date in their own transaction
 * (`handleCommand` applies each to what the append wrote).
 */
export const sessionsCommands = defineCommandContext({
  name: 'sessions',
  inline: [practiceProjection],
});
