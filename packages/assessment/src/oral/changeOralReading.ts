import { inTransaction, type Sql } from '@qiraa/db';
import type { EventStore, NewEvent } from '@qiraa/eventstore';
import { ApiError, conflict, notFound } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import { recordEvidence } from '../commands/recordEvidence';
import { streams } from '../events';
import { teacherPlace } from './attemptPlace';
import { foldOralReading, type OralReadingState } from './oralReadingState';

const ATTEMPTS = 5;

/** Another organization's reading answers exactly like an unknown one (the child's 404 is the reading's). */
export const asUnknownReading = (error: unknown): never => {
  throw error instanceof ApiError && error.status === 404 ? notFound('oral reading') : error;
};

/** The reading as stored now; 404 when the stream has no reading. */
export async function loadOralReading(store: EventStore, attemptId: string): Promise<OralReadingState> {
  const state = foldOralReading(await store.readStream(streams.oralReading(attemptId)));
  if (!state) throw notFound('oral reading');
  return state;
}

/**
 * Appends what `decide` makes of an open reading. Checked in this order: the caller is a teacher of the child
 * (403), the reading is not voided (409 `voided`) nor stopped (409 `already_stopped`), then `decide`'s own
 * checks. Optimistic: the append expects the version it decided on; a concurrent change makes it read again
 * and decide anew (so a mark racing a stop either lands before it or gets 409 `already_stopped`).
 */
export async function changeOralReading(
  deps: { sql: Sql; store: EventStore },
  caller: Caller,
  attemptId: string,
  decide: (state: OralReadingState) => Promise<NewEvent[]> | NewEvent[],
): Promise<OralReadingState> {
  for (let attempt = 1; ; attempt++) {
    const events = await deps.store.readStream(streams.oralReading(attemptId));
    const state = foldOralReading(events);
    if (!state) throw notFound('oral reading');
    await teacherPlace(deps.sql, caller, state.started.studentId).catch(asUnknownReading);
    if (state.voided) throw conflict('voided', 'the oral reading was voided');
    if (state.stopped) throw conflict('already_stopped', 'the oral reading is already stopped');
    const next = (await decide(state)).map((e) => ({
      ...e,
      metadata: { organizationId: state.started.organizationId, actorUserId: caller.userId, ...e.metadata },
    }));
    const result = await inTransaction(deps.sql, (uow) =>
      recordEvidence(uow, deps.store, streams.oralReading(attemptId), next, state.version),
    );
    if (result.kind === 'appended') return foldOralReading([...events, ...result.events])!;
    if (attempt >= ATTEMPTS) throw conflict('concurrent_change', 'the oral reading changed meanwhile; try again');
  }
}
