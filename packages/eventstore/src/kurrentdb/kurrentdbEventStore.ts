import { EventStoreDBClient } from '@eventstore/db-client';
import { appendListeners } from '../appendListeners';
import { ReadNotSupportedError } from '../auditReads';
import type { AppendOptions, EventStore, NewEvent, Subscription } from '../types';
import { stampEvents } from '../writeContext';
import { appendToStream } from './appendToStream';
import { countAfter } from './countAfter';
import { head } from './head';
import { readAll } from './readAll';
import { readStream } from './readStream';
import { readStreamFields } from './readStreamFields';
import { type ResubscribeOptions, subscribeToAll } from './subscribeToAll';

export interface KurrentdbEventStoreOptions {
  resubscribe?: ResubscribeOptions;
}

const unsupported = (read: string): Promise<never> => Promise.reject(new ReadNotSupportedError('KurrentDB', read));

/** The event-store port on KurrentDB/EventStoreDB 22.6+ over gRPC, e.g. `esdb://localhost:2113?tls=false`. */
export function kurrentdbEventStore(connectionString: string, options: KurrentdbEventStoreOptions = {}): EventStore {
  const client = EventStoreDBClient.connectionString(connectionString);
  const listeners = appendListeners();
  const subscriptions = new Set<Subscription>();

  async function append(streamId: string, events: readonly NewEvent[], opts: AppendOptions = {}) {
    // KurrentDB cannot join the caller's PostgreSQL transaction, so the events are durable at once; the
    // listeners still wait for that transaction, so a projection they wake also sees the caller's writes.
    const result = await appendToStream(client, streamId, stampEvents(events), opts.expected ?? 'any');
    listeners.announce(result, opts.uow);
    return result;
  }

  return {
    adapter: 'kurrentdb',
    logInDatabase: false,
    append,
    readStream: (streamId, opts) => readStream(client, streamId, opts),
    readAll: (opts) => readAll(client, opts),
    countAfter: (after, types) => countAfter(client, after, types),
    readStreamFields: (streamIds, opts) => readStreamFields(client, streamIds, opts),
    // The auditor's reads need the log in the application's PostgreSQL (stream organizations, the student
    // index, the hash chain): none of them exists here.
    readEventsById: () => unsupported('readEventsById'),
    readEventsCausedBy: () => unsupported('readEventsCausedBy'),
    readLog: () => unsupported('readLog'),
    readStreamsInLogOrder: () => unsupported('readStreamsInLogOrder'),
    streamExists: () => unsupported('streamExists'),
    studentStreams: () => unsupported('studentStreams'),
    readChain: () => unsupported('readChain'),
    streamHeadGaps: () => unsupported('streamHeadGaps'),
    verifyCheckpoints: () => unsupported('verifyCheckpoints'),
    recordVerifyCheckpoint: () => unsupported('recordVerifyCheckpoint'),
    head: () => head(client),
    subscribe(opts) {
      const subscription = subscribeToAll(client, opts, options.resubscribe);
      subscriptions.add(subscription);
      return {
        stop: async () => {
          subscriptions.delete(subscription);
          await subscription.stop();
        },
      };
    },
    onAppended: listeners.add,
    async close() {
      await Promise.all([...subscriptions].map((s) => s.stop()));
      subscriptions.clear();
      await client.dispose();
    },
  };
}
