import { inTransaction, type Sql, type UnitOfWork, writeCombinerOf } from '@qiraa/db';
import { appendListeners } from '../appendListeners';
import { pollingSubscription } from '../pollingSubscription';
import type { AppendOptions, AppendResult, EventStore, NewEvent, PipelinedWrite, StreamAppend } from '../types';
import { stampEvents } from '../writeContext';
import { appendMany } from './appendMany';
import { appendPipelined } from './appendPipelined';
import { appendToStream } from './appendToStream';
import {
  readEventsById,
  readEventsCausedBy,
  readLog,
  readStreamsInLogOrder,
  streamExists,
  studentStreams,
} from './auditReads';
import { readChain, recordVerifyCheckpoint, streamHeadGaps, verifyCheckpoints } from './chain';
import { countAfter } from './countAfter';
import { oldestAfter, readAll, readHeldBack, visibleHead } from './readAll';
import { readStream, readStreamsWithin, readStreamWithin, streamInStatement } from './readStream';
import { readStreamFields } from './readStreamFields';

/** The event-store port on PostgreSQL (tables es_streams and es_events, migration 0001). */
export function postgresEventStore(sql: Sql, options: { pollIntervalMs?: number } = {}): EventStore {
  const listeners = appendListeners();

  async function append(
    streamId: string,
    events: readonly NewEvent[],
    opts: AppendOptions = {},
  ): Promise<AppendResult> {
    if (opts.combine && !opts.uow && writeCombinerOf(sql)) {
      // In its own savepoint of a shared transaction; its listeners hear of it after the shared commit.
      const expected = opts.expected;
      return inTransaction(sql, (uow) => append(streamId, events, { expected, uow }), {
        combine: true,
        combineKey: streamId,
      });
    }
    const result = await appendToStream(opts.uow?.sql ?? sql, streamId, stampEvents(events), opts.expected ?? 'any');
    listeners.announce(result, opts.uow);
    return result;
  }

  async function appendAll(appends: readonly StreamAppend[], opts: Pick<AppendOptions, 'uow'> = {}) {
    const stamped = appends.map((a) => ({ streamId: a.streamId, events: stampEvents(a.events) }));
    const results = await appendMany(opts.uow?.sql ?? sql, stamped);
    for (const result of results) listeners.announce(result, opts.uow);
    return results;
  }

  /** A pipelined write's appends: several streams that expect no version in one statement, else one each. */
  function appendWrites(writes: readonly PipelinedWrite[], uow: UnitOfWork): Promise<AppendResult[]> {
    const anyVersion = writes.every((w) => w.expected === 'any');
    if (writes.length > 1 && anyVersion) return appendAll(writes, { uow });
    return Promise.all(writes.map((w) => append(w.streamId, w.events, { uow, expected: w.expected })));
  }

  const store: EventStore = {
    adapter: 'postgres',
    logInDatabase: true,
    append,
    appendMany: appendAll,
    appendPipelined: (writes, opts) => appendPipelined(appendWrites, writes, opts.uow, opts.recordedAt),
    readStream: (streamId, opts) => readStream(sql, streamId, opts),
    readStreamWithin: (conn, streamId, opts) => readStreamWithin(conn, streamId, opts),
    readStreamsWithin: (conn, streamIds) => readStreamsWithin(conn, streamIds),
    streamInStatement: (conn, streamId) => streamInStatement(conn, streamId),
    readAll: (opts) => readAll(sql, opts),
    readHeldBack: (after, types) => readHeldBack(sql, after, types),
    oldestAfter: (after, types) => oldestAfter(sql, after, types),
    countAfter: (after, types) => countAfter(sql, after, types),
    head: () => visibleHead(sql),
    readStreamFields: (streamIds, opts) => readStreamFields(sql, streamIds, opts),
    readEventsById: (ids, scope) => readEventsById(sql, ids, scope),
    readEventsCausedBy: (eventId, opts) => readEventsCausedBy(sql, eventId, opts),
    readLog: (query) => readLog(sql, query),
    readStreamsInLogOrder: (streamIds) => readStreamsInLogOrder(sql, streamIds),
    streamExists: (streamId, scope) => streamExists(sql, streamId, scope),
    studentStreams: (studentId, opts) => studentStreams(sql, studentId, opts),
    readChain: (query) => readChain(sql, query),
    streamHeadGaps: (scope) => streamHeadGaps(sql, scope),
    verifyCheckpoints: () => verifyCheckpoints(sql),
    recordVerifyCheckpoint: (checkpoint) => recordVerifyCheckpoint(sql, checkpoint),
    subscribe: (opts) => pollingSubscription(store, opts, options.pollIntervalMs),
    onAppended: listeners.add,
    close: async () => {},
  };
  return store;
}
