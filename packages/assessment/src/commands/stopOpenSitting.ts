import { type Decider, handleCommand } from '@qiraa/command-kit';
import type { Sql } from '@qiraa/db';
import { deterministicEventId, type EventStore, type NewEvent, type RecordedEvent } from '@qiraa/eventstore';
import { assessmentCommands } from '../commandContext';
import {
  ATTEMPT_VOIDED,
  assessmentEvents,
  ORAL_READING_STOPPED,
  SITTING_COMPLETED,
  SITTING_STARTED,
  SITTING_STOPPED,
  type SittingStopped,
  type StopReason,
  streams,
} from '../events';

/** Events after which an attempt's stream takes no more answers or marks. */
const ENDING = new Set<string>([SITTING_COMPLETED, SITTING_STOPPED, ORAL_READING_STOPPED, ATTEMPT_VOIDED]);

/** Whether an event of this type ends an attempt's stream. */
export const endsAttempt = (type: string): boolean => ENDING.has(type);

/** An attempt stream is open while it has events and none of them ends it. */
export const isOpenStream = (events: readonly RecordedEvent[]) =>
  events.length > 0 && !events.some((e) => ENDING.has(e.type));

/** Appends attempted per stream before giving up on a stream other writers keep moving. */
export const STREAM_RETRIES = 8;

/** A sitting's stream as a stop decides on it: whether it holds events, whether one ends it, its organization. */
export interface OpenSittingState {
  readonly started: boolean;
  readonly ended: boolean;
  readonly organizationId: string | null;
}

export interface StopSitting {
  readonly attemptId: string;
  readonly reason: StopReason;
  readonly at: Date;
}

/**
 * A stop's rule: an open sitting (events, none ending it) ends with `SittingStopped { reason }`, one
 * deterministic id per sitting; anything else is nothing to do. The stop names the sitting's organization:
 * a window close runs as a schedule or an administrator of any scope, whose context names none.
 */
export const stopSittingDecider: Decider<StopSitting, NewEvent<SittingStopped>, OpenSittingState> = {
  initialState: () => ({ started: false, ended: false, organizationId: null }),
  evolve(state, recorded) {
    const [event] = assessmentEvents([recorded]);
    const organizationId = event?.type === SITTING_STARTED ? event.data.organizationId : state.organizationId;
    return { started: true, ended: state.ended || ENDING.has(recorded.type), organizationId };
  },
  decide({ attemptId, reason, at }, { started, ended, organizationId }) {
    if (!started || ended) return [];
    return [
      {
        eventId: deterministicEventId('sitting-stopped', attemptId),
        type: SITTING_STOPPED,
        data: { attemptId, at: at.toISOString(), reason },
        metadata: { organizationId },
      },
    ];
  },
};

/**
 * Ends an open digital sitting with `SittingStopped { reason }` at the stream version it was read at, so an
 * answer appended meanwhile makes the append conflict; the sitting is then read again (and left alone when
 * that answer completed it). Answers whether this call stopped it.
 */
export async function stopOpenSitting(
  deps: { sql: Sql; store: EventStore },
  attemptId: string,
  reason: StopReason,
  at: Date,
): Promise<boolean> {
  const streamId = streams.sitting(attemptId);
  const { kind } = await handleCommand(deps, {
    context: assessmentCommands,
    streamId,
    decider: stopSittingDecider,
    command: { attemptId, reason, at },
    attempts: STREAM_RETRIES,
    // Stopped already under this id (the window-close job and a request): not this call's stop.
    onDuplicate: 'done',
    onConflict: () => new Error(`sitting ${attemptId}: the stream kept moving; not stopped`),
  });
  return kind === 'appended';
}
