import { defineCommandContext } from '@qiraa/command-kit';
import { gamificationLedgerProjection } from './projections/ledgerProjection';

/**
 * Gamification's write side: the ledger read models are written in the command's own transaction (the next
 * decision of a student reads them under the student's lock), by the command kit's write step.
 */
export const gamificationCommands = defineCommandContext({
  name: 'gamification',
  inline: [gamificationLedgerProjection],
});
