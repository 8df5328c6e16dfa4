import type { Checkpoint, EventStore, SubscribeOptions, Subscription } from './types';

/**
 * Subscription by polling readAll: used by the PostgreSQL adapter, whose log has no push channel.
 * Batches are delivered in order; the next poll starts after the checkpoint the last batch returned.
 */
export function pollingSubscription(
  store: Pick<EventStore, 'readAll'>,
  options: SubscribeOptions,
  intervalMs = 250,
): Subscription {
  let stopped = false;
  let after: Checkpoint | null = options.after ?? null;
  let timer: NodeJS.Timeout | undefined;
  const loop = async (): Promise<void> => {
    try {
      for (;;) {
        if (stopped) return;
        const batch = await store.readAll({ after, limit: options.batchSize ?? 500, types: options.types });
        if (batch.checkpoint && batch.events.length > 0) await options.onBatch(batch.events, batch.checkpoint);
        after = batch.checkpoint;
        if (batch.caughtUp) break;
      }
    } catch (error) {
      options.onError?.(error);
    }
    if (!stopped) {
      timer = setTimeout(() => {
        running = loop();
      }, intervalMs);
    }
  };
  let running = loop();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
