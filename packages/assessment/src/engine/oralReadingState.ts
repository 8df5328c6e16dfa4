import type { RecordedEvent } from '@qiraa/eventstore';
import {
  ATTEMPT_VOIDED,
  type AttemptVoided,
  assessmentEvents,
  ORAL_READING_MARKED,
  ORAL_READING_STARTED,
  ORAL_READING_STOPPED,
} from '../events';
import type { OralReadingStartedData, OralReadingStoppedData, OrfMark } from '../events/orfEvents';
import { countRead, type ReadCountResult } from './readCounts';

/** One oral reading folded from its stream `orf-<id>`. */
export interface OralReadingState {
  readonly started: OralReadingStartedData;
  /** The latest mark of each marked word. */
  readonly marks: ReadonlyMap<number, OrfMark>;
  readonly stopped: OralReadingStoppedData | null;
  readonly voided: AttemptVoided | null;
  /** The stream's version: the expected version of the next append. */
  readonly version: bigint;
}

/** Folds the stream; null when it has no opening event (no such reading). */
export function foldOralReading(events: readonly RecordedEvent[]): OralReadingState | null {
  let started: OralReadingStartedData | null = null;
  const marks = new Map<number, OrfMark>();
  let stopped: OralReadingStoppedData | null = null;
  let voided: AttemptVoided | null = null;
  let version = 0n;
  for (const e of assessmentEvents(events)) {
    version = e.streamVersion;
    if (e.type === ORAL_READING_STARTED) started = e.data;
    else if (e.type === ORAL_READING_MARKED && !stopped) {
      const m = e.data;
      marks.set(m.wordIndex, m.mark);
    } else if (e.type === ORAL_READING_STOPPED && !stopped) stopped = e.data;
    else if (e.type === ATTEMPT_VOIDED && !voided) voided = e.data;
  }
  return started ? { started, marks, stopped, voided, version } : null;
}

/** The words whose latest mark is `error` (a self-correction or a clear mark counts the word correct). */
export const errorIndicesOf = (marks: ReadonlyMap<number, OrfMark>): number[] =>
  [...marks]
    .filter(([, mark]) => mark === 'error')
    .map(([index]) => index)
    .sort((a, b) => a - b);

/** The counts of a reading's stop, by the timed-grid rules (readCounts.ts). */
export const countsOfStop = (
  state: Pick<OralReadingState, 'started'>,
  stop: { lastWordIndex: number; elapsedSeconds: number; errorIndices: readonly number[] },
): ReadCountResult =>
  countRead({
    wordCount: state.started.wordCount,
    timing: { timed: true, durationSeconds: state.started.durationSeconds },
    lastWordIndex: stop.lastWordIndex,
    elapsedSeconds: stop.elapsedSeconds,
    errorIndices: stop.errorIndices,
  });
