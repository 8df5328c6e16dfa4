import { evaluateEngineRules } from '@qiraa/http-kit';
import type { ReadCutPin } from '../events/readEvents';
import { type BandBasis, bandRead, type ReadBand, type ReadCutTable } from './bandRead';
import type { ReadCounts } from './readCounts';
import { scoreRead } from './scoreRead';

/** Spec: how the rate cut came into an oral reading's band. */
export const RATE_CUTS = ['applied', 'withheld_in_window', 'no_norm'] as const;
export type RateCut = (typeof RATE_CUTS)[number];

/** Everything derived from a read's raw counts and its cut table: never stored as truth, only as a summary. */
export interface BandedRead {
  readonly wcpm: number | null;
  /** Correct / attempted as a whole percent, 0-100. */
  readonly accuracy: number;
  readonly accuracyBand: ReadBand | null;
  readonly rateBand: ReadBand | null;
  readonly band: ReadBand | null;
  readonly bandBasis: BandBasis | null;
  readonly skippedReason: 'not_banded' | null;
  readonly rateCut: RateCut;
  readonly provisional: boolean;
  /** The cut table the read used, empty ones included (null: no table for the cell, grade and window). */
  readonly cut: ReadCutPin | null;
}

/**
 * Scores and bands a read: WCPM over the actual seconds, accuracy, then the accuracy and rate bands of the
 * cut table (the rate cut left out when the table withholds it in this window or has none). Provisional when
 * the measure or the table is still being normed, or when no table applies.
 */
export function bandedRead(
  counts: ReadCounts,
  table: ReadCutTable | null,
  scoringStatus: 'normed' | 'provisional',
): BandedRead {
  // The scoring engine evaluating its rules: a throw is the engine unavailable (503), never a 500.
  return evaluateEngineRules('scoring', 'the read banding', () => bandedReadOf(counts, table, scoringStatus));
}

function bandedReadOf(
  counts: ReadCounts,
  table: ReadCutTable | null,
  scoringStatus: 'normed' | 'provisional',
): BandedRead {
  const score = scoreRead(counts);
  const rateCut: RateCut =
    table === null || score.wcpm === null || (table.rate.length === 0 && !table.rateWithheld)
      ? 'no_norm'
      : table.rateWithheld
        ? 'withheld_in_window'
        : 'applied';
  const banding = bandRead(score, table && { ...table, rate: rateCut === 'applied' ? table.rate : [] });
  return {
    wcpm: score.wcpm,
    accuracy: score.accuracyPercent,
    accuracyBand: banding.accuracyBand,
    rateBand: banding.rateBand,
    band: banding.band,
    bandBasis: banding.bandBasis,
    skippedReason: banding.skippedReason,
    rateCut,
    provisional: scoringStatus === 'provisional' || table === null || table.provisional,
    // Pinned even when empty (not_banded), so reading the read again derives the same answer.
    cut: table && { version: table.version, organizationId: table.organizationId },
  };
}

/** The scores and bands of a read as every read response carries them (word-list read, its view). */
export const bandedFields = (read: BandedRead) => ({
  wcpm: read.wcpm,
  accuracy: read.accuracy,
  accuracyBand: read.accuracyBand,
  rateBand: read.rateBand,
  band: read.band,
  bandBasis: read.bandBasis,
  skippedReason: read.skippedReason,
  rateCut: read.rateCut,
  provisional: read.provisional,
});

/** The teacher page's summary of a banded read (`asm_attempts.result`). */
export const resultSummary = (read: BandedRead) => ({
  wcpm: read.wcpm,
  accuracy: read.accuracy,
  accuracyBand: read.accuracyBand,
  rateBand: read.rateBand,
  band: read.band,
  bandBasis: read.bandBasis,
  rateCut: read.rateCut,
  provisional: read.provisional,
});
