import { commitAfter, type UnitOfWork } from '@qiraa/db';
import type { AppendResult, EventStore, ExpectedVersion, NewEvent } from '@qiraa/eventstore';
import { applyContextInline, type CommandContext } from './commandContext';

/** One stream's share of a command's write. */
export interface StreamWrite {
  readonly streamId: string;
  readonly events: readonly NewEvent[];
  /** Default `any`: the command decided under a lock of its own (a ledger), not on the stream's version. */
  readonly expected?: ExpectedVersion;
}

export interface WriteOptions {
  /**
   * Send the appends, the store's guard and the inline projections' statements together, without waiting for
   * the appends' answer (one exchange instead of two), where the store can (`EventStore.appendPipelined`, the one
   * pipelined append `handleCommand` uses too); elsewhere they are awaited in turn. The projections then read the events
   * as they will be recorded: their stream version follows from a bigint `expected` (0 with any other, so
   * only for contexts whose projections read no stream version of such an append) and `recordedAt` is their
   * `createdAt`. An append that writes nothing (a conflict, a duplicate) fails the guard: the unit of work
   * rolls back and throws `NOT_APPENDED`.
   */
  readonly pipelined?: boolean;
  /**
   * Nothing follows in the unit of work, which the caller owns: COMMIT goes out right behind the last
   * statements (`uow.commitAfter`), one round trip less.
   */
  readonly last?: boolean;
  /** The events' `createdAt` as a pipelined projection reads it (the transaction's clock where one reads it). */
  readonly recordedAt?: Date;
}

/**
 * The write step of every command (`handleCommand` ends in it; a command that decides several streams under a
 * lock of its own calls it directly): the appends in the command's unit of work (every stream in one statement
 * where the store can, `appendMany`, when none expects a version), then the context's inline projections on
 * what was appended. One result per write, in order.
 */
export async function writeStreams(
  store: EventStore,
  uow: UnitOfWork,
  context: CommandContext,
  writes: readonly StreamWrite[],
  options: WriteOptions = {},
): Promise<AppendResult[]> {
  const nonEmpty = writes.filter((w) => w.events.length > 0);
  if (options.pipelined && nonEmpty.length > 0 && store.appendPipelined && uow.commitAfter) {
    const results = await pipelinedWrite(store.appendPipelined, uow, context, nonEmpty, options);
    return resultsInOrder(writes, nonEmpty, results);
  }
  const results = await appendAll(store, uow, nonEmpty);
  const projected = applyContextInline(
    uow,
    context,
    results.flatMap((r) => (r.kind === 'appended' ? r.events : [])),
  );
  await (options.last ? commitAfter(uow, projected) : projected);
  return resultsInOrder(writes, nonEmpty, results);
}

function appendAll(store: EventStore, uow: UnitOfWork, writes: readonly StreamWrite[]): Promise<AppendResult[]> {
  if (writes.length === 0) return Promise.resolve([]);
  const anyVersion = writes.every((w) => w.expected === undefined || w.expected === 'any');
  if (writes.length > 1 && anyVersion && store.appendMany) return store.appendMany(writes, { uow });
  return Promise.all(writes.map((w) => store.append(w.streamId, w.events, { uow, expected: w.expected ?? 'any' })));
}

/** A write with no events answers `duplicate` at the version it names (nothing was sent for it). */
function resultsInOrder(
  writes: readonly StreamWrite[],
  sent: readonly StreamWrite[],
  results: readonly AppendResult[],
): AppendResult[] {
  const bySent = new Map(sent.map((w, i) => [w, results[i]!]));
  return writes.map(
    (w) => bySent.get(w) ?? { kind: 'duplicate', streamVersion: typeof w.expected === 'bigint' ? w.expected : 0n },
  );
}

/**
 * Appends, guard, projections (and COMMIT when `last`) in one exchange. The projections read only what is
 * known before the append (ids, data, metadata as the store stamps it, the version after `expected`).
 */
async function pipelinedWrite(
  appendPipelined: NonNullable<EventStore['appendPipelined']>,
  uow: UnitOfWork,
  context: CommandContext,
  writes: readonly StreamWrite[],
  options: WriteOptions,
): Promise<AppendResult[]> {
  const pending = appendPipelined(
    writes.map((w) => ({ streamId: w.streamId, events: w.events, expected: w.expected ?? 'any' })),
    { uow, ...(options.recordedAt ? { recordedAt: options.recordedAt } : {}) },
  );
  const sent = Promise.all([pending.written, applyContextInline(uow, context, pending.events)]);
  const [results] = await (options.last ? commitAfter(uow, sent) : sent);
  return results;
}
