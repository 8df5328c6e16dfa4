/**
 * The result of one measure of a digital sitting (spec `MeasureResult`), from the correctness of the
 * answers the server scored. Pure: the sitting's events and the pinned cut table come in, the result goes out.
 */

/** Why a measure is not complete: closed codes with the Arabic a teacher reads. */
export const INCOMPLETE_REASONS = {
  not_finished: 'لم يُكمل الطالب أسئلة هذا المقياس بعد',
  sitting_stopped: 'توقفت الجلسة قبل أسئلة هذا المقياس الأخيرة',
  window_closed: 'أُغلقت نافذة التقييم قبل إكمال هذا المقياس',
} as const;
export type IncompleteReason = keyof typeof INCOMPLETE_REASONS;

/** How the sitting ended, as far as this measure is concerned. */
export type SittingEnd = 'open' | 'completed' | 'stopped' | 'window_closed';

/** Versioned cut rows of one measure in one grade and window: the lowest raw score of levels 2, 3 and 4. */
export interface MeasureLevelCuts {
  readonly version: string;
  readonly minRaw: readonly [number, number, number];
  /** A cut table still being normed: results read with it are provisional. */
  readonly provisional: boolean;
}

export interface MeasureScoreInput {
  /** Questions of this measure in the sitting's form plan. */
  readonly planned: number;
  /** Server-scored correctness of each answered question of this measure (one entry per question). */
  readonly correct: readonly boolean[];
  readonly end: SittingEnd;
  readonly cuts: MeasureLevelCuts | null;
  /** The catalog's scoring status of the measure. */
  readonly scoringStatus: 'normed' | 'provisional';
}

export interface MeasureScore {
  readonly raw: number;
  readonly max: number;
  readonly complete: boolean;
  readonly incompleteReason: IncompleteReason | null;
  readonly incompleteReasonAr: string | null;
  /** 1-4 for a complete measure with a cut table; null otherwise (nothing is decided from a partial measure). */
  readonly level: 1 | 2 | 3 | 4 | null;
  readonly provisional: boolean;
  readonly cutVersion: string | null;
}

export function scoreMeasure(input: MeasureScoreInput): MeasureScore {
  const answered = Math.min(input.correct.length, input.planned);
  const raw = input.correct.slice(0, answered).filter(Boolean).length;
  const complete = input.planned > 0 && answered === input.planned;
  const incompleteReason: IncompleteReason | null = complete
    ? null
    : input.end === 'window_closed'
      ? 'window_closed'
      : input.end === 'stopped' || input.end === 'completed'
        ? 'sitting_stopped'
        : 'not_finished';
  const level =
    complete && input.cuts ? ((1 + input.cuts.minRaw.filter((min) => raw >= min).length) as 1 | 2 | 3 | 4) : null;
  return {
    raw,
    max: input.planned,
    complete,
    incompleteReason,
    incompleteReasonAr: incompleteReason ? INCOMPLETE_REASONS[incompleteReason] : null,
    level,
    provisional: input.scoringStatus === 'provisional' || (input.cuts?.provisional ?? false),
    cutVersion: complete && input.cuts ? input.cuts.version : null,
  };
}

/**
 * Spec `MeasureComposite`: the comprehension score out of 12 over the two passages (informational only,
 * never used by a decision): the sum of both passages' raw scores scaled to 12, or null unless both are complete.
 */
export function comprehensionComposite(passages: readonly MeasureScore[]): { score: number; outOf: 12 } | null {
  if (passages.length !== 2 || passages.some((p) => !p.complete)) return null;
  const raw = passages.reduce((sum, p) => sum + p.raw, 0);
  const max = passages.reduce((sum, p) => sum + p.max, 0);
  return max > 0 ? { score: Math.round((raw * 12) / max), outOf: 12 } : null;
}
