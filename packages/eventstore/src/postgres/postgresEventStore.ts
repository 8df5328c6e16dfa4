import type { Sql } from '@qiraa/db';
import { pollingSubscription } from '../pollingSubscription';
import type { AppendOptions, AppendResult, EventStore, NewEvent, RecordedEvent } from '../types';
import { alreadyStored, appendToStream, isDuplicateEventId } from './appendToStream';
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
    const expected = opts.expected ?? 'any';
    const uow = opts.uow;
    if (uow) {
      // A savepoint keeps the caller's transaction usable when a concurrent retry wins the event-id race.
      try {
        const result = await uow.sql.savepoint((sp) => appendToStream(sp, streamId, events, expected));
        uow.afterCommit(() => notify(result));
        return result;
      } catch (error) {
        if (!isDuplicateEventId(error)) throw error;
        return (await duplicateOrThrow(uow.sql, streamId, events, error)) as AppendResult;
      }
    }
    try {
      const result = (await sql.begin((tx) => appendToStream(tx, streamId, events, expected))) as AppendResult;
      notify(result);
      return result;
    } catch (error) {
      if (!isDuplicateEventId(error)) throw error;
      return duplicateOrThrow(sql, streamId, events, error);
    }
  }

  async function duplicateOrThrow(
    q: Parameters<typeof alreadyStored>[0],
    streamId: string,
    events: readonly NewEvent[],
    error: unknown,
  ): Promise<AppendResult> {
    const ids = events.map((e) => e.eventId).filter((id): id is string => Boolean(id));
    const duplicate = ids.length === events.length ? await alreadyStored(q, streamId, ids) : null;
    if (duplicate) return duplicate;
    throw error;
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
