import { type Decider, handleCommand } from '@qiraa/command-kit';
import type { Sql } from '@qiraa/db';
import type { EventStore, NewEvent, RecordedEvent } from '@qiraa/eventstore';
import { ApiError, conflict, notFound } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import { assessmentCommands } from '../commandContext';
import { foldOralReading, type OralReadingState } from '../engine/oralReadingState';
import { streams } from '../events';
import { teacherPlace } from './attemptPlace';

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

/** A reading's stream as a change decides on it: the events and their fold (null: no reading). */
export interface OralReadingStream {
  readonly recorded: readonly RecordedEvent[];
  readonly reading: OralReadingState | null;
}

/** What a change makes of an open reading (a mark, a stop): its own checks, then the events. */
export type OralReadingChange = (state: OralReadingState) => Promise<NewEvent[]> | NewEvent[];

/**
 * The rules every change of a reading shares: 404 without a reading, 409 `voided`, 409 `already_stopped`, then
 * the change's own. `evolve` folds the whole stream again (`foldOralReading`): a reading's stream is its words'
 * marks, and the fold only runs over the one or two events a change appends.
 */
export const oralReadingDecider: Decider<OralReadingChange, NewEvent, OralReadingStream> = {
  initialState: () => ({ recorded: [], reading: null }),
  evolve(state, event) {
    const recorded = [...state.recorded, event];
    return { recorded, reading: foldOralReading(recorded) };
  },
  async decide(change, { reading }) {
    if (!reading) throw notFound('oral reading');
    if (reading.voided) throw conflict('voided', 'the oral reading was voided');
    if (reading.stopped) throw conflict('already_stopped', 'the oral reading is already stopped');
    return change(reading);
  },
};

/**
 * Appends what `change` makes of an open reading. Checked in this order: the reading exists (404), the caller is
 * a teacher of the child (403, read by the loader), the reading is not voided (409 `voided`) nor stopped (409
 * `already_stopped`), then `change`'s own checks. Optimistic: the append expects the version it decided on; a
 * concurrent change makes it read again and decide anew (so a mark racing a stop either lands before it or gets
 * 409 `already_stopped`).
 */
export async function changeOralReading(
  deps: { sql: Sql; store: EventStore },
  caller: Caller,
  attemptId: string,
  change: OralReadingChange,
): Promise<OralReadingState> {
  const streamId = streams.oralReading(attemptId);
  const { state } = await handleCommand(deps, {
    context: assessmentCommands,
    streamId,
    decider: oralReadingDecider,
    command: change,
    load: {
      name: 'the reading’s stream, and the caller’s place as the child’s teacher',
      inTransaction: false,
      async load() {
        const recorded = await deps.store.readStream(streamId);
        const reading = foldOralReading(recorded);
        if (!reading) throw notFound('oral reading');
        await teacherPlace(deps.sql, caller, reading.started.studentId).catch(asUnknownReading);
        return { state: { recorded, reading }, version: reading.version };
      },
    },
    metadata: ({ reading }) => ({ organizationId: reading?.started.organizationId, actorUserId: caller.userId }),
    attempts: ATTEMPTS,
    onConflict: () => conflict('concurrent_change', 'the oral reading changed meanwhile; try again'),
  });
  // The decider refuses without a reading, so a change that got here has one.
  return state.reading as OralReadingState;
}
