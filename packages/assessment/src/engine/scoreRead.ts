import type { ReadCounts } from './readCounts';

export interface ReadScore {
  /** Words correct per minute over the seconds actually read, one decimal; null for an untimed read. */
  readonly wcpm: number | null;
  /** Correct / attempted as a whole percent, 0-100. */
  readonly accuracyPercent: number;
}

/** Rates derived from stored counts (never stored themselves). */
export function scoreRead(counts: ReadCounts): ReadScore {
  const wcpm =
    counts.timed && counts.elapsedSeconds ? Math.round((counts.correct * 600) / counts.elapsedSeconds) / 10 : null;
  const accuracyPercent = counts.attempted > 0 ? Math.floor((counts.correct * 100) / counts.attempted) : 0;
  return { wcpm, accuracyPercent };
}
