import type { RecordedEvent } from '@qiraa/eventstore';
import {
  ATTEMPT_VOIDED,
  SITTING_ANSWER_RECORDED,
  SITTING_COMPLETED,
  SITTING_STARTED,
  SITTING_STOPPED,
  type SittingStopped,
} from '../events';
import type { DigitalSittingStarted, SittingAnswerRecorded, SittingFold } from './sittingTypes';

/**
 * A sitting from its stream, in order. The first end (completed or stopped, whoever wrote it) wins; an answer
 * after an end is ignored (none is written, but a stream is read as it is); a void marks the sitting voided.
 */
export function foldSitting(events: readonly RecordedEvent[]): SittingFold | null {
  const first = events[0];
  if (!first || first.type !== SITTING_STARTED) return null;
  const started = first.data as DigitalSittingStarted;
  const fold: SittingFold = {
    attemptId: started.attemptId,
    started,
    answers: new Map(),
    status: 'in_progress',
    endReason: null,
    endedAt: null,
    voided: false,
    streamVersion: first.streamVersion,
  };
  for (const e of events) {
    fold.streamVersion = e.streamVersion;
    if (e.type === SITTING_ANSWER_RECORDED && fold.status === 'in_progress') {
      const a = e.data as SittingAnswerRecorded;
      if (!fold.answers.has(a.position)) fold.answers.set(a.position, a);
    } else if ((e.type === SITTING_COMPLETED || e.type === SITTING_STOPPED) && fold.status === 'in_progress') {
      const ended = e.data as SittingStopped;
      fold.status = e.type === SITTING_COMPLETED ? 'done' : 'stopped';
      fold.endReason = e.type === SITTING_COMPLETED ? 'completed' : ended.reason;
      fold.endedAt = ended.at;
    } else if (e.type === ATTEMPT_VOIDED) {
      fold.voided = true;
    }
  }
  return fold;
}

/** The position served now: the first question without an answer (the plan's length when all are answered). */
export const servedPosition = (fold: Pick<SittingFold, 'answers' | 'started'>): number => {
  let p = 0;
  while (p < fold.started.plan.length && fold.answers.has(p)) p++;
  return p;
};
