import type { NewEvent, RecordedEvent } from '@qiraa/eventstore';

/**
 * A command's rules as a plain record (Emmett's `Decider`): `decide` answers a command on a state with the
 * events to append, or throws the refusal; `evolve` folds one stored event onto a state; `initialState` is the
 * state of an empty stream. `decide` and `evolve` should be pure, so the rules are tested without a database
 * (`DeciderSpecification`, `@qiraa/command-kit/testing`). `decide` may be async where a rule needs an
 * input only a read gives (a score's cut table); that read belongs in the loader when it can.
 */
export interface Decider<Command, Event extends NewEvent, State> {
  initialState(): State;
  evolve(state: State, event: RecordedEvent): State;
  decide(command: Command, state: State): readonly Event[] | Promise<readonly Event[]>;
}

/** The state of a stream folded through a decider (the 'stream' loading strategy's fold). */
export function foldEvents<State>(
  decider: Pick<Decider<never, NewEvent, State>, 'initialState' | 'evolve'>,
  events: readonly RecordedEvent[],
  from: State = decider.initialState(),
): State {
  let state = from;
  for (const event of events) state = decider.evolve(state, event);
  return state;
}
