/**
 * The counts of one read of a word grid or a passage (a word-list read, an oral reading), validated on the
 * server so that no client can store an impossible score: field tools that trusted the client produced
 * negative words per minute (marks past the last word) and auto-marked words at time-out. Only raw counts
 * are stored; rates and bands are derived from them (scoreRead, bandRead).
 */

/** Spec, POST /api/word-lists/assessments: the 422 reasons of a read that cannot be counted. */
export const READ_REFUSALS = [
  'word_list_timing_required',
  'word_list_elapsed_exceeds_duration',
  'word_list_last_word_out_of_range',
  'word_list_not_timed',
] as const;
export type ReadRefusal = (typeof READ_REFUSALS)[number];

export interface ReadInput {
  /** Words in the grid or passage, at least 1. */
  readonly wordCount: number;
  readonly timing: { readonly timed: boolean; readonly durationSeconds: number | null };
  /** 0-based index of the last word the child reached; timed reads only. */
  readonly lastWordIndex?: number | null;
  /** Seconds actually read, 1 up to the duration; timed reads only. */
  readonly elapsedSeconds?: number | null;
  /** 0-based indexes of the words marked wrong. */
  readonly errorIndices: readonly number[];
}

export interface ReadCounts {
  readonly timed: boolean;
  /** Words attempted: the last word index plus one (timed), every word (untimed). */
  readonly attempted: number;
  readonly errors: number;
  readonly correct: number;
  readonly lastWordIndex: number | null;
  readonly elapsedSeconds: number | null;
  /** Distinct marks on words past the last attempted one (or outside the grid): dropped, not counted. */
  readonly droppedMarks: number;
}

export type ReadCountResult =
  | { readonly ok: true; readonly counts: ReadCounts }
  | { readonly ok: false; readonly reason: ReadRefusal; readonly field: string };

const refuse = (reason: ReadRefusal, field: string): ReadCountResult => ({ ok: false, reason, field });

/** Validates a read against its grid and timing and counts it. Pure and deterministic. */
export function countRead(input: ReadInput): ReadCountResult {
  const { wordCount, timing } = input;
  const last = input.lastWordIndex ?? null;
  const elapsed = input.elapsedSeconds ?? null;
  if (!timing.timed) {
    if (last !== null) return refuse('word_list_not_timed', 'last_word_index');
    if (elapsed !== null) return refuse('word_list_not_timed', 'elapsed_seconds');
  } else {
    if (last === null) return refuse('word_list_timing_required', 'last_word_index');
    if (elapsed === null) return refuse('word_list_timing_required', 'elapsed_seconds');
    if (!Number.isInteger(last) || last < 0 || last >= wordCount) {
      return refuse('word_list_last_word_out_of_range', 'last_word_index');
    }
    const duration = timing.durationSeconds ?? 60;
    if (!Number.isInteger(elapsed) || elapsed < 1 || elapsed > duration) {
      return refuse('word_list_elapsed_exceeds_duration', 'elapsed_seconds');
    }
  }
  const attempted = timing.timed ? (last as number) + 1 : wordCount;
  const marked = new Set(input.errorIndices.filter((i) => Number.isInteger(i)));
  let errors = 0;
  for (const index of marked) if (index >= 0 && index < attempted) errors++;
  return {
    ok: true,
    counts: {
      timed: timing.timed,
      attempted,
      errors,
      correct: attempted - errors,
      lastWordIndex: timing.timed ? last : null,
      elapsedSeconds: timing.timed ? elapsed : null,
      droppedMarks: marked.size - errors,
    },
  };
}
