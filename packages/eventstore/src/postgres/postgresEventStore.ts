import type { Sql } from '@qiraa/db';
import { appendListeners } from '../appendListeners';
import { pollingSubscription } from '../pollingSubscription';
import type { AppendOptions, EventStore, NewEvent, StreamAppend } from '../types';
import { appendMany } from './appendMany';
import { appendToStream } from './appendToStream';
import { countAfter } from './countAfter';
import { readAll, visibleHead } from './readAll';
import { readStream } from './readStream';

/** The event-store port on PostgreSQL (tables es_streams and es_events, migration 0001). */
export function postgresEventStore(sql: Sql, options: { pollIntervalMs?: number } = {}): EventStore {
  const listeners = appendListeners();

  async function append(streamId: string, events: readonly NewEvent[], opts: AppendOptions = {}) {
    const result = await appendToStream(opts.uow?.sql ?? sql, streamId, events, opts.expected ?? 'any');
    listeners.announce(result, opts.uow);
    return result;
  }

  async function appendAll(appends: readonly StreamAppend[], opts: Pick<AppendOptions, 'uow'> = {}) {
    const results = await appendMany(opts.uow?.sql ?? sql, appends);
    for (const result of results) listeners.announce(result, opts.uow);
    return results;
  }

  const store: EventStore = {
    adapter: 'postgres',
    append,
    appendMany: appendAll,
    readStream: (streamId, opts) => readStream(sql, streamId, opts),
    readAll: (opts) => readAll(sql, opts),
    countAfter: (after, types) => countAfter(sql, after, types),
    head: () => visibleHead(sql),
    subscribe: (opts) => pollingSubscription(store, opts, options.pollIntervalMs),
    onAppended: listeners.add,
    close: async () => {},
  };
  return store;
}
