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
import { applyContextInline, type CommandContext } from './commandContext';
import { type Decider, foldEvents } from './decider';

/** A state as loaded, and the stream version the append will expect (the version it was decided on). */
export interface LoadedState<State> {
  readonly state: State;
  readonly version: ExpectedVersion;
  /**
   * The stream the state was read from, when the loader is what finds it (a child's queued session: which one
   * is a read): the append goes there. Else the command's `streamId`.
   */
  readonly streamId?: string;
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

/**
 * The loader of a command that reads nothing: its events are decided without the stream, expected version `any`
 * (an id derived from what it records makes it once, `onDuplicate: 'done'`; or every call is one more entry, an
 * audit log's). `state` is what `decide` is handed.
 */
export function withoutRead<State>(state: State): StateLoader<State> {
  return {
    name: 'nothing: appended at any version',
    inTransaction: false,
    load: async () => ({ state, version: 'any' }),
  };
}

export interface CommandDeps {
  readonly sql: Sql;
  readonly store: EventStore;
}

export interface HandleCommandOptions<Command, Event extends NewEvent, State> {
  /** The context's write side: its inline projections are applied to what the append wrote. */
  readonly context: CommandContext;
  /** The stream appended to; may be left to a loader that finds it (`LoadedState.streamId`). */
  readonly streamId?: string;
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
  /**
   * Join this unit of work instead of opening one per attempt: a reactor's batch, or another command's
   * transaction when one request writes several streams at once (each stream its own `handleCommand`, all on
   * the one `uow`; the caller's transaction commits or rolls back all of them). A conflict is decided again
   * inside it, on a loader's read of the unit of work (read committed: it sees the winner's commit).
   */
  readonly uow?: UnitOfWork;
  /**
   * Work that must commit with the append, decided by the state after it: `followUp(state)` answers the work
   * (run in the same unit of work once the append and the inline projections are sent, so it reads what they
   * wrote) or null when the state asks for none. E.g. a practice answer's level rule, which appends to the
   * level stream through its own `handleCommand` joining the `uow` it is handed.
   */
  readonly followUp?: (state: State) => ((uow: UnitOfWork) => Promise<void>) | null;
  /**
   * Send the append, its guard, the inline projections and COMMIT in one exchange (one round trip less per
   * command, docs/capacity.md "Write path"), with `followUp`'s statements, when there are any, in place of
   * COMMIT. The projections are applied to the events as the append will record them, before its answer.
   * Only for a command whose append's success is the whole decision: nothing may refuse after `decide`.
   * Where the store cannot (no `appendPipelined`), the unit of work is the caller's (`uow`) or the loaded
   * version is not exact (`any`), the command appends and waits as without it. A pipelined append that meets
   * a conflict or a duplicate rolls back and is decided again (a duplicate as a conflict: `onDuplicate` does
   * not apply).
   */
  readonly pipelined?: boolean;
  /**
   * Every event id was stored already (deterministic ids): `retry` decides again on the stream as it is now
   * (the default: the decider then sees its own events), `done` answers the loaded state as it is.
   */
  readonly onDuplicate?: 'retry' | 'done';
  /** The error when every attempt met a conflict (default `CommandConflictError`), e.g. an HTTP 409. */
  readonly onConflict?: () => Error;
}

/**
 * A stored event typed as the decider's `Event` declared it: its `type` and `data`, with the store's fields.
 * Member by member, so a decider of a context's union (`NewEvent & SessionEvent`) answers that union.
 */
export type StoredAs<Event extends NewEvent> = Event extends unknown
  ? Omit<RecordedEvent, 'type' | 'data'> & { type: Event['type']; data: Event['data'] }
  : never;

export interface CommandResult<State, Event extends NewEvent = NewEvent> {
  /** `appended`: events written; `unchanged`: the decider had nothing to say; `duplicate`: all stored already. */
  readonly kind: 'appended' | 'unchanged' | 'duplicate';
  /** The state after the command: the loaded state with the appended events folded onto it. */
  readonly state: State;
  /** The events as stored (empty unless appended), typed as the decider's events. */
  readonly events: readonly StoredAs<Event>[];
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

type Attempt<State, Event extends NewEvent> =
  | { readonly done: true; readonly result: Omit<CommandResult<State, Event>, 'attempts'> }
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
): Promise<CommandResult<State, Event>> {
  const { decider, streamId } = options;
  const load = options.load ?? 'stream';
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;

  const streamOf = (loaded: LoadedState<State>): string => {
    const id = loaded.streamId ?? streamId;
    if (id === undefined) throw new Error('handleCommand: no stream (neither the command’s streamId nor the loader’s)');
    return id;
  };

  const loadOutside = async (attempt: number): Promise<LoadedState<State>> => {
    if (load === 'stream') {
      if (streamId === undefined) throw new Error('handleCommand: the stream loader needs the command’s streamId');
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
    const expected = loaded.version;
    if (options.pipelined && !options.uow && uow.commitAfter && deps.store.appendPipelined) {
      if (typeof expected === 'bigint' || expected === 'no_stream') {
        return writePipelined(uow, uow.commitAfter, loaded, events, expected);
      }
    }
    const result: AppendResult = await deps.store.append(streamOf(loaded), events, { uow, expected });
    if (result.kind === 'appended') {
      await applyContextInline(uow, options.context, result.events);
      const work = options.followUp?.(foldEvents(decider, result.events, loaded.state));
      if (work) await work(uow);
    }
    return result;
  };

  const writePipelined = async (
    uow: UnitOfWork,
    commitAfter: NonNullable<UnitOfWork['commitAfter']>,
    loaded: LoadedState<State>,
    events: readonly NewEvent[],
    expected: bigint | 'no_stream',
  ): Promise<AppendResult> => {
    const pending = deps.store.appendPipelined!([{ streamId: streamOf(loaded), events, expected }], { uow });
    const sent = Promise.all([
      pending.written.then(([result]) => result!),
      applyContextInline(uow, options.context, pending.events),
    ]);
    const work = options.followUp?.(foldEvents(decider, pending.events, loaded.state));
    if (!work) return (await commitAfter(sent))[0];
    // A macrotask later, behind the guard: the follow-up's statements follow the projections' on the wire.
    const followed = new Promise<void>((resolve) => setImmediate(resolve)).then(() => work(uow));
    const [[result]] = await Promise.all([sent, followed]);
    return result;
  };

  const outcomeOf = (loaded: LoadedState<State>, result: AppendResult): Attempt<State, Event> => {
    if (result.kind === 'appended') {
      const state = foldEvents(decider, result.events, loaded.state);
      // The one place the store's events become the decider's: they are the events `decide` returned.
      return { done: true, result: { kind: 'appended', state, events: result.events as StoredAs<Event>[] } };
    }
    if (result.kind === 'duplicate' && options.onDuplicate === 'done') {
      return { done: true, result: { kind: 'duplicate', state: loaded.state, events: [] } };
    }
    return { done: false };
  };

  const unchanged = (loaded: LoadedState<State>): Attempt<State, Event> => ({
    done: true,
    result: { kind: 'unchanged', state: loaded.state, events: [] },
  });

  const inUnitOfWork = <T>(work: (uow: UnitOfWork) => Promise<T>): Promise<T> =>
    options.uow ? work(options.uow) : inTransaction(deps.sql, work);

  for (let attempt = 0; attempt < attempts; attempt++) {
    let outcome: Attempt<State, Event>;
    try {
      if (load !== 'stream' && load.inTransaction) {
        outcome = await inUnitOfWork(async (uow) => {
          const loaded = await load.load(uow, attempt);
          const events = await decideOn(loaded);
          if (events.length === 0) return unchanged(loaded);
          return outcomeOf(loaded, await write(uow, loaded, events));
        });
      } else {
        const loaded = await loadOutside(attempt);
        const events = await decideOn(loaded);
        outcome =
          events.length === 0
            ? unchanged(loaded)
            : outcomeOf(loaded, await inUnitOfWork((uow) => write(uow, loaded, events)));
      }
    } catch (error) {
      // A pipelined append that was not stored: its transaction rolled back; decide again as on a conflict.
      if (!options.uow && (error as { code?: unknown })?.code === NOT_APPENDED) continue;
      throw error;
    }
    if (outcome.done) return { ...outcome.result, attempts: attempt + 1 };
  }
  throw options.onConflict?.() ?? new CommandConflictError(streamId ?? 'found by the loader', attempts);
}
