import { inTransaction, type Sql, type UnitOfWork } from '@qiraa/db';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  NOT_APPENDED,
  type RecordedEvent,
} from '@qiraa/eventstore';
import type { CommandContext } from './commandContext';
import { type Decider, foldEvents } from './decider';
import { writeStreams } from './writeStreams';

/** A state as loaded, and the stream version the append will expect (the version it was decided on). */
export interface LoadedState<State> {
  readonly state: State;
  readonly version: ExpectedVersion;
}

/**
 * How a command reads the state it decides on. Named, so a reader sees which kind each command is:
 *
 * - `'stream'` (the default): read the stream through the store and fold it with the decider's `evolve`;
 *   outside the transaction, which then holds its connection only for the append and the inline projections
 *   (the expected version makes the decision safe: a write in between is a conflict, decided again);
 * - a loader `inTransaction: true`: reads inside the command's unit of work, e.g. a read model row with the
 *   stream version it reflects, under a lock where the ledger needs one (`for update`), plus what the rules
 *   need beside it (the caller's reach);
 * - a loader `inTransaction: false`: a custom read outside it (a read model row first, the stream on a retry).
 *
 * `attempt` counts from 0; a loader may decide on a read model the first time and on the stream after a
 * conflict. A loader's `version` must be the stream version its state reflects.
 */
export type StateLoader<State> =
  | 'stream'
  | {
      readonly name: string;
      readonly inTransaction: true;
      load(uow: UnitOfWork, attempt: number): Promise<LoadedState<State>>;
    }
  | {
      readonly name: string;
      readonly inTransaction: false;
      load(attempt: number): Promise<LoadedState<State>>;
    };

export interface CommandDeps {
  readonly sql: Sql;
  readonly store: EventStore;
}

export interface HandleCommandOptions<Command, Event extends NewEvent, State> {
  /** The context's write side: its inline projections are applied to what the append wrote. */
  readonly context: CommandContext;
  readonly streamId: string;
  readonly decider: Decider<Command, Event, State>;
  readonly command: Command;
  readonly load?: StateLoader<State>;
  /**
   * Metadata every appended event carries (the event's own keys win), e.g. the stream's organization. The
   * write context (`withWriteContext`: actor, correlation, causation) is stamped by the store on top.
   */
  readonly metadata?: EventMetadata | ((state: State) => EventMetadata);
  /** Attempts in all, the first included (default 5). */
  readonly attempts?: number;
  /** Join this unit of work (a reactor's batch) instead of opening one per attempt. */
  readonly uow?: UnitOfWork;
  /**
   * Every event id was stored already (deterministic ids): `retry` decides again on the stream as it is now
   * (the default: the decider then sees its own events), `done` answers the loaded state as it is.
   */
  readonly onDuplicate?: 'retry' | 'done';
  /** The error when every attempt met a conflict (default `CommandConflictError`), e.g. an HTTP 409. */
  readonly onConflict?: () => Error;
  /**
   * `pipelined`: the append is the command's last word (nothing after it may refuse), so the append, the
   * store's guard, the inline projections and, in the command's own unit of work, COMMIT go out in one
   * exchange (`writeStreams`' `pipelined`), where the store can guard an append and the loaded version is a
   * number; else the append is awaited first. A conflict or a duplicate then rolls the attempt back and is
   * decided again as a conflict (a duplicate finds its events on the stream: `onDuplicate` cannot tell it).
   * In a joined unit of work the statements are pipelined, COMMIT stays the caller's, and a refused append
   * fails the caller's unit of work (no retry).
   */
  readonly commit?: 'pipelined';
}

export interface CommandResult<State> {
  /** `appended`: events written; `unchanged`: the decider had nothing to say; `duplicate`: all stored already. */
  readonly kind: 'appended' | 'unchanged' | 'duplicate';
  /** The state after the command: the loaded state with the appended events folded onto it. */
  readonly state: State;
  /** The events as stored (empty unless appended). */
  readonly events: readonly RecordedEvent[];
  /** How many attempts it took (1 without a conflict). */
  readonly attempts: number;
}

/** Every attempt's append met a newer stream version. */
export class CommandConflictError extends Error {
  constructor(
    readonly streamId: string,
    readonly attempts: number,
  ) {
    super(`stream ${streamId} kept moving: ${attempts} conflicting appends`);
    this.name = 'CommandConflictError';
  }
}

const DEFAULT_ATTEMPTS = 5;

type Attempt<State> =
  | { readonly done: true; readonly result: Omit<CommandResult<State>, 'attempts'> }
  | { readonly done: false };

/**
 * The one way a command writes (Emmett's `handleCommand`): load the state (a named strategy), decide, append
 * with the version decided on, apply the context's inline projections to the appended events in the same unit of
 * work, and on a version conflict load and decide again, up to `attempts` times. The store's append stamps the
 * write context's metadata; after-commit wake-ups (projections, reactions) are the unit of work's.
 *
 * A refusal is whatever `decide` (or the loader) throws: it ends the command at once, writes nothing.
 */
export async function handleCommand<Command, Event extends NewEvent, State>(
  deps: CommandDeps,
  options: HandleCommandOptions<Command, Event, State>,
): Promise<CommandResult<State>> {
  const { decider, streamId } = options;
  const load = options.load ?? 'stream';
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;

  const loadOutside = async (attempt: number): Promise<LoadedState<State>> => {
    if (load === 'stream') {
      const events = await deps.store.readStream(streamId);
      return { state: foldEvents(decider, events), version: events.at(-1)?.streamVersion ?? 0n };
    }
    if (load.inTransaction) throw new Error('unreachable: an in-transaction loader is called with its unit of work');
    return load.load(attempt);
  };

  const decideOn = async (loaded: LoadedState<State>) => {
    const decided = await decider.decide(options.command, loaded.state);
    const base = typeof options.metadata === 'function' ? options.metadata(loaded.state) : options.metadata;
    return base ? decided.map((e) => ({ ...e, metadata: { ...base, ...e.metadata } })) : decided;
  };

  const write = async (uow: UnitOfWork, loaded: LoadedState<State>, events: readonly NewEvent[]) => {
    const pipelined = options.commit === 'pipelined' && typeof loaded.version === 'bigint';
    const [result] = await writeStreams(
      deps.store,
      uow,
      options.context,
      [{ streamId, events, expected: loaded.version }],
      { pipelined, last: pipelined && !options.uow },
    );
    return result as AppendResult;
  };

  const outcomeOf = (loaded: LoadedState<State>, result: AppendResult): Attempt<State> => {
    if (result.kind === 'appended') {
      const state = foldEvents(decider, result.events, loaded.state);
      return { done: true, result: { kind: 'appended', state, events: result.events } };
    }
    if (result.kind === 'duplicate' && options.onDuplicate === 'done') {
      return { done: true, result: { kind: 'duplicate', state: loaded.state, events: [] } };
    }
    return { done: false };
  };

  const unchanged = (loaded: LoadedState<State>): Attempt<State> => ({
    done: true,
    result: { kind: 'unchanged', state: loaded.state, events: [] },
  });

  const inUnitOfWork = <T>(work: (uow: UnitOfWork) => Promise<T>): Promise<T> =>
    options.uow ? work(options.uow) : inTransaction(deps.sql, work);

  // A pipelined append refused in the command's own unit of work arrives as the guard's error, rolled back.
  const refusedAppend = (error: unknown): Attempt<State> => {
    if (!options.uow && (error as { code?: string } | null)?.code === NOT_APPENDED) return { done: false };
    throw error;
  };

  for (let attempt = 0; attempt < attempts; attempt++) {
    let outcome: Attempt<State>;
    if (load !== 'stream' && load.inTransaction) {
      outcome = await inUnitOfWork(async (uow) => {
        const loaded = await load.load(uow, attempt);
        const events = await decideOn(loaded);
        if (events.length === 0) return unchanged(loaded);
        return outcomeOf(loaded, await write(uow, loaded, events));
      }).catch(refusedAppend);
    } else {
      const loaded = await loadOutside(attempt);
      const events = await decideOn(loaded);
      outcome =
        events.length === 0
          ? unchanged(loaded)
          : await inUnitOfWork((uow) => write(uow, loaded, events)).then(
              (result) => outcomeOf(loaded, result),
              refusedAppend,
            );
    }
    if (outcome.done) return { ...outcome.result, attempts: attempt + 1 };
  }
  throw options.onConflict?.() ?? new CommandConflictError(streamId, attempts);
}
