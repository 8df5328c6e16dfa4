import { defineCommandContext } from '@qiraa/command-kit';
import { ASSESSMENT_PROJECTIONS } from './projections';

/**
 * Assessment's write side: every read model of the context is applied in the command's own transaction
 * (read-your-writes), by `handleCommand` (and by `recordEvidence` for the test fixtures' writes).
 */
export const assessmentCommands = defineCommandContext({ name: 'assessment', inline: ASSESSMENT_PROJECTIONS });
