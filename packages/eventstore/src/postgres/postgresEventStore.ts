import type { Sql } from '@qiraa/db';
import { pollingSubscription } from '../pollingSubscription';
import type { AppendOptions, AppendResult, EventStore, NewEvent, RecordedEvent } from '../types';
import { appendToStream } from './appendToStream';
import { countAfter } from './countAfter';
import { readAll, visibleHead } from './readAll';
import { readStream } from './readStream';

/** The event-store port on PostgreSQL (tables es_streams and es_events, migration 0001). */
export function postgresEventStore(sql: Sql, options: { pollIntervalMs?: number } = {}): EventStore {
  const listeners: Array<(events: readonly RecordedEvent[]) => void> = [];
  const notify = (result: AppendResult) => {
    if (result.kind !== 'appended') return;
    for (const listener of listeners) listener(result.events);
  };

  async function append(streamId: string, events: readonly NewEvent[], opts: AppendOptions = {}) {
    const result = await appendToStream(opts.uow?.sql ?? sql, streamId, events, opts.expected ?? 'any');
    if (opts.uow) opts.uow.afterCommit(() => notify(result));
    else notify(result);
    return result;
  }

  const store: EventStore = {
    adapter: 'postgres',
    append,
    readStream: (streamId, opts) => readStream(sql, streamId, opts),
    readAll: (opts) => readAll(sql, opts),
    countAfter: (after, types) => countAfter(sql, after, types),
    head: () => visibleHead(sql),
    subscribe: (opts) => pollingSubscription(store, opts, options.pollIntervalMs),
    onAppended: (listener) => void listeners.push(listener),
    close: async () => {},
  };
  return store;
}
