import {
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type EventStoreDBClient,
  type Position,
  START,
} from '@eventstore/db-client';
import type { RecordedEvent, SubscribeOptions, Subscription } from '../types';
import { decodeCheckpoint, encodeCheckpoint } from './checkpoint';
import { serverTypeFilter, typeMatcher } from './eventTypes';
import { toRecordedEvent } from './recordedEvent';

export interface ResubscribeOptions {
  /** First wait after a dropped subscription; doubles up to `maxDelayMs` and resets after a delivered batch. */
  minDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * A catch-up subscription to $all that hands `onBatch` whatever has arrived, up to `batchSize`, and waits for
 * it before taking more. When the subscription drops or `onBatch` throws it subscribes again, after a
 * backoff, from the last position whose batch was handled: a failed batch is delivered again.
 */
export function subscribeToAll(
  client: EventStoreDBClient,
  options: SubscribeOptions,
  retry: ResubscribeOptions = {},
): Subscription {
  const minDelay = retry.minDelayMs ?? 100;
  const maxDelay = retry.maxDelayMs ?? 5_000;
  const batchSize = options.batchSize ?? 500;
  const wanted = typeMatcher(options.types);
  const filter = serverTypeFilter(options.types);
  let from: Position | null = decodeCheckpoint(options.after);
  let stopped = false;
  let current: AllStreamSubscription | null = null;
  let wake: (() => void) | null = null;

  async function deliver(batch: readonly AllStreamResolvedEvent[]): Promise<boolean> {
    const events: RecordedEvent[] = [];
    let last: Position | null = null;
    for (const resolved of batch) {
      const event = resolved.event;
      // The start position is exclusive on the server; checked here too, as a reconnect must not repeat it.
      if (!event || (from && event.position.commit <= from.commit)) continue;
      last = event.position;
      const recorded = wanted(event.type) ? toRecordedEvent(resolved) : null;
      if (recorded) events.push(recorded);
    }
    if (!last) return false;
    if (events.length > 0) await options.onBatch(events, encodeCheckpoint(last));
    from = last;
    return events.length > 0;
  }

  async function consume(subscription: AllStreamSubscription, onDelivered: () => void): Promise<void> {
    const events = subscription[Symbol.asyncIterator]();
    for (;;) {
      const first = await events.next();
      if (first.done || stopped) return;
      const batch = [first.value];
      // Only what is already buffered joins the batch, so a quiet log never delays an event.
      while (batch.length < batchSize && subscription.readableLength > 0) {
        const next = await events.next();
        if (next.done) break;
        batch.push(next.value);
      }
      if (stopped) return;
      if (await deliver(batch)) onDelivered();
    }
  }

  async function run(): Promise<void> {
    let delay = minDelay;
    while (!stopped) {
      const subscription = client.subscribeToAll({ fromPosition: from ?? START, filter });
      // Errors reach the iterator too; this listener only keeps a late one (after a drop) from crashing the process.
      subscription.on('error', () => {});
      current = subscription;
      try {
        await consume(subscription, () => {
          delay = minDelay;
        });
      } catch (error) {
        if (!stopped) options.onError?.(error);
      } finally {
        current = null;
        release(subscription);
      }
      if (stopped) return;
      await sleep(delay);
      delay = Math.min(delay * 2, maxDelay);
    }
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });
  }

  const running = run();
  return {
    async stop() {
      stopped = true;
      wake?.();
      if (current) release(current);
      await running;
    },
  };
}

/**
 * Cancelling the gRPC call does not end the client's stream object, so it is destroyed as well: that ends a
 * pending read. The cancel is not awaited, as it first waits for a connection that may never come.
 */
function release(subscription: AllStreamSubscription): void {
  subscription.destroy();
  subscription.unsubscribe().catch(() => {});
}
