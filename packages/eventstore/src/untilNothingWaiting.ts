import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore } from './types';

/**
 * Waits until no committed event is held back behind an older open transaction anywhere in the cluster
 * (PostgreSQL's xmin horizon), so a read sees everything committed so far. False when the wait timed out.
 */
export async function untilNothingWaiting(
  store: Pick<EventStore, 'readAll' | 'head'>,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<boolean> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const probe = await store.readAll({ after: await store.head(), limit: 1 });
    if (!probe.waiting && probe.caughtUp) return true;
    if (Date.now() > deadline) return false;
    await sleep(options.intervalMs ?? 25);
  }
}
