import type { ReadScore } from './scoreRead';

/**
 * The four bands of a read, weakest first. Asset-framed tokens for teachers; parents never see them (the
 * parent portal maps a band to one of its four phrases).
 */
export const READ_BANDS = ['beginning', 'developing', 'on_track', 'strong'] as const;
export type ReadBand = (typeof READ_BANDS)[number];

/** One cut table row set: the lowest accuracy (percent) or rate (wcpm) that reaches each band above the first. */
export interface ReadCuts {
  /** Versioned data: every banded read records the version it used. */
  readonly version: string;
  /** e.g. [{ band: 'developing', min: 80 }, { band: 'on_track', min: 90 }, { band: 'strong', min: 97 }] */
  readonly accuracy: readonly { readonly band: ReadBand; readonly min: number }[];
  readonly rate: readonly { readonly band: ReadBand; readonly min: number }[];
}

export type BandBasis = 'accuracy' | 'rate' | 'lower_of';

export interface ReadBanding {
  readonly accuracyBand: ReadBand | null;
  readonly rateBand: ReadBand | null;
  /** The lower of the two when both exist; null with skippedReason `not_banded` when no cut applies. */
  readonly band: ReadBand | null;
  readonly bandBasis: BandBasis | null;
  readonly skippedReason: 'not_banded' | null;
  readonly cutVersion: string | null;
}

const rank = (band: ReadBand) => READ_BANDS.indexOf(band);

function bandOf(value: number, cuts: ReadCuts['accuracy']): ReadBand | null {
  if (cuts.length === 0) return null;
  let band: ReadBand = 'beginning';
  for (const cut of cuts) if (value >= cut.min && rank(cut.band) > rank(band)) band = cut.band;
  return band;
}

/** Bands a scored read with a cut table (none: an empty table, so the read is stored without a band). */
export function bandRead(score: ReadScore, cuts: ReadCuts | null): ReadBanding {
  const accuracyBand = cuts ? bandOf(score.accuracyPercent, cuts.accuracy) : null;
  const rateBand = cuts && score.wcpm !== null ? bandOf(score.wcpm, cuts.rate) : null;
  if (accuracyBand === null && rateBand === null) {
    return { accuracyBand, rateBand, band: null, bandBasis: null, skippedReason: 'not_banded', cutVersion: null };
  }
  const bandBasis: BandBasis = accuracyBand && rateBand ? 'lower_of' : accuracyBand ? 'accuracy' : 'rate';
  const band =
    accuracyBand && rateBand
      ? rank(accuracyBand) <= rank(rateBand)
        ? accuracyBand
        : rateBand
      : (accuracyBand ?? rateBand);
  return { accuracyBand, rateBand, band, bandBasis, skippedReason: null, cutVersion: cuts?.version ?? null };
}

/** One row of `asm_read_cuts`: the cuts of one cell, grade and window in one version and scope. */
export interface ReadCutTable extends ReadCuts {
  /** null: the global default. */
  readonly organizationId: string | null;
  /** A rate norm exists but is not applied in this window: the read is banded on accuracy alone. */
  readonly rateWithheld: boolean;
  /** Cuts still being normed: a read banded with them is provisional. */
  readonly provisional: boolean;
}
