import { inTransaction, type Sql } from '@qiraa/db';
import { deterministicEventId, type EventStore, isOfType, type RecordedEvent } from '@qiraa/eventstore';
import { recordEvidence } from '../commands/recordEvidence';
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

/** An attempt stream is open while it has events and none of them ends it. */
export const isOpenStream = (events: readonly RecordedEvent[]) =>
  events.length > 0 && !events.some((e) => ENDING.has(e.type));

export const streamVersionOf = (events: readonly RecordedEvent[]) => events[events.length - 1]?.streamVersion ?? 0n;

/** Thrown inside a transaction to roll it back and decide again on a fresh read of the stream. */
export class StreamMoved extends Error {}

/** Appends attempted per stream before giving up on a stream other writers keep moving. */
export const STREAM_RETRIES = 8;

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
  for (let attempt = 0; attempt < STREAM_RETRIES; attempt++) {
    const events = await deps.store.readStream(streamId);
    if (!isOpenStream(events)) return false;
    const data: SittingStopped = { attemptId, at: at.toISOString(), reason };
    // A window close runs as a schedule or an administrator of any scope: the sitting names its organization.
    const organizationId = assessmentEvents(events).find(isOfType(SITTING_STARTED))?.data.organizationId ?? null;
    const stop = {
      eventId: deterministicEventId('sitting-stopped', attemptId),
      type: SITTING_STOPPED,
      data,
      metadata: { organizationId },
    };
    const result = await inTransaction(deps.sql, (uow) =>
      recordEvidence(uow, deps.store, streamId, [stop], streamVersionOf(events)),
    );
    if (result.kind === 'appended') return true;
    if (result.kind === 'duplicate') return false;
  }
  throw new Error(`sitting ${attemptId}: the stream kept moving; not stopped`);
}
