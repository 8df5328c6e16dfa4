import type { AttemptVoided, OralReadingStarted } from '.';
import type { ReadCutPin } from './readEvents';

/** Closed mark codes a teacher puts on a word of the passage; the latest mark of a word is the one that counts. */
export const ORF_MARKS = ['error', 'self_correction', 'clear'] as const;
export type OrfMark = (typeof ORF_MARKS)[number];

/**
 * The reading time of an oral reading (spec Limits: 60 seconds, configuration-driven). Pinned on the
 * started event, so changing it later never changes a stored reading.
 */
export const ORF_DURATION_SECONDS = 60;

/** `OralReadingStarted` as this context writes it: the header plus the passage and the pinned timing. */
export interface OralReadingStartedData extends OralReadingStarted {
  passageId: string;
  passageVersion: number;
  wordCount: number;
  durationSeconds: number;
}

export interface OralReadingMarkedData {
  attemptId: string;
  wordIndex: number;
  mark: OrfMark;
  markedBy: number;
  at: string;
}

/** Raw counts and the pinned cut table; `result` is the teacher page's summary derived from them. */
export interface OralReadingStoppedData {
  attemptId: string;
  at: string;
  stoppedBy: number;
  lastWordIndex: number;
  elapsedSeconds: number;
  /** The words whose latest mark is `error`, before the last word is applied (marks past it are dropped). */
  errorIndices: number[];
  attempted: number;
  errors: number;
  droppedMarks: number;
  cut: ReadCutPin | null;
  rateCut: string;
  result: Record<string, unknown>;
}

export type { AttemptVoided };
