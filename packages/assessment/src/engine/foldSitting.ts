import type { RecordedEvent } from '@qiraa/eventstore';
import {
  ATTEMPT_VOIDED,
  assessmentEvents,
  SITTING_ANSWER_RECORDED,
  SITTING_COMPLETED,
  SITTING_STARTED,
  SITTING_STOPPED,
} from '../events';
import type { SittingFold } from '../events/sittingTypes';

/**
 * A sitting from its stream, in order. The first end (completed or stopped, whoever wrote it) wins; an answer
 * after an end is ignored (none is written, but a stream is read as it is); a void marks the sitting voided.
 */
export function foldSitting(events: readonly RecordedEvent[]): SittingFold | null {
  const first = assessmentEvents(events)[0];
  if (!first || first.type !== SITTING_STARTED) return null;
  const started = first.data;
  const initial: SittingFold = {
    attemptId: started.attemptId,
    started,
    answers: new Map(),
    status: 'in_progress',
    endReason: null,
    endedAt: null,
    voided: false,
    streamVersion: first.streamVersion,
  };
  return foldOnto(initial, events);
}

/** `fold` with the stream's next `events` applied (a new fold; `fold` is left as it was). */
export function foldOnto(fold: SittingFold, events: readonly RecordedEvent[]): SittingFold {
  const next: SittingFold = { ...fold, answers: new Map(fold.answers) };
  for (const e of assessmentEvents(events)) {
    next.streamVersion = e.streamVersion;
    if (e.type === SITTING_ANSWER_RECORDED && next.status === 'in_progress') {
      const a = e.data;
      if (!next.answers.has(a.position)) next.answers.set(a.position, a);
    } else if ((e.type === SITTING_COMPLETED || e.type === SITTING_STOPPED) && next.status === 'in_progress') {
      next.status = e.type === SITTING_COMPLETED ? 'done' : 'stopped';
      next.endReason = e.type === SITTING_COMPLETED ? 'completed' : e.data.reason;
      next.endedAt = e.data.at;
    } else if (e.type === ATTEMPT_VOIDED) {
      next.voided = true;
    }
  }
  return next;
}

/** The position served now: the first question without an answer (the plan's length when all are answered). */
export const servedPosition = (fold: Pick<SittingFold, 'answers' | 'started'>): number => {
  let p = 0;
  while (p < fold.started.plan.length && fold.answers.has(p)) p++;
  return p;
};
