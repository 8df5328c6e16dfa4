import { deepStrictEqual, fail } from 'node:assert/strict';
import type { NewEvent } from '@qiraa/eventstore';
import { type Decider, foldEvents } from '../decider';
import { recordedEvents } from './recorded';

/** What an expected event pins: its type and data always, its id and metadata when the spec names them. */
export type ExpectedEvent = Pick<NewEvent, 'type' | 'data'> & Partial<Pick<NewEvent, 'eventId' | 'metadata'>>;

export interface DeciderThen<Event extends NewEvent> {
  /** The command decides exactly these events, in order. */
  thenEvents(expected: readonly ExpectedEvent[]): Promise<void>;
  /** The command decides nothing (already done, nothing changed). */
  thenNothing(): Promise<void>;
  /** The command is refused: `decide` throws, and `check` (when given) accepts what it threw. */
  thenThrows(check?: (error: unknown) => void): Promise<void>;
  /** The decided events, for assertions of one's own. */
  events(): Promise<readonly Event[]>;
}

/**
 * Given/when/then for a decider's pure rules (Emmett's `DeciderSpecification`), no database:
 *
 *     const spec = DeciderSpecification.for(alertDecider);
 *     await spec.given([raised]).when(acknowledge).thenEvents([{ type: TRAINING_ALERT_ACKNOWLEDGED, data }]);
 *     await spec.givenState(resolvedAlert).when(acknowledge).thenThrows(isConflict('already_resolved'));
 *
 * `given` folds events through `evolve` (on a stream named `spec`); `givenState` starts from a state as a
 * loader would hand it (a read model row), for deciders whose state is not a fold.
 */
export const DeciderSpecification = {
  for<Command, Event extends NewEvent, State>(decider: Decider<Command, Event, State>) {
    const whenOn = (state: () => State) => ({
      when(command: Command): DeciderThen<Event> {
        const decided = async () => decider.decide(command, state());
        const events = decided;
        return {
          events,
          async thenEvents(expected) {
            const actual = (await events()).map((e, i) => pick(e, expected[i]));
            deepStrictEqual(actual, expected);
          },
          async thenNothing() {
            deepStrictEqual(await events(), []);
          },
          async thenThrows(check) {
            let decidedEvents: readonly Event[];
            try {
              decidedEvents = await decided();
            } catch (error) {
              check?.(error);
              return;
            }
            fail(`expected a refusal, got ${decidedEvents.length} event(s): ${decidedEvents.map((e) => e.type)}`);
          },
        };
      },
    });
    return {
      given: (events: readonly NewEvent[]) => whenOn(() => foldEvents(decider, recordedEvents('spec', events))),
      givenState: (state: State) => whenOn(() => state),
    };
  },
};

/** The actual event reduced to what the expected one pins (all of it past the expected list's end). */
function pick(actual: NewEvent, expected: ExpectedEvent | undefined): ExpectedEvent {
  if (!expected) return actual;
  const out: ExpectedEvent = { type: actual.type, data: actual.data };
  if ('eventId' in expected) out.eventId = actual.eventId;
  if ('metadata' in expected) out.metadata = actual.metadata;
  return out;
}
