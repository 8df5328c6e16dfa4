import { setTimeout as sleep } from 'node:timers/promises';
import type { RecordedEvent } from '@qiraa/eventstore';
import type { RunnerDeps } from '../runProjectionBatch';
import { findReaction, type Reaction, type RetryPolicy } from './reaction';
import { type ReactionRunResult, runReaction } from './runReaction';

/** What the apps hold beside the projector: something that keeps every reaction moving after appends. */
export interface Reactor {
  readonly mode: 'in_process' | 'bullmq';
  readonly reactions: readonly Reaction[];
  /** Called after a commit with the events it appended; schedules the reactions that handle them. */
  wake(events: readonly RecordedEvent[]): void;
  /**
   * Runs reactions to the head now, in this process (CLI, tests): everything committed before the call is
   * handled or parked when it resolves, waiting out another consumer's run and events held back by older
   * open transactions for at most `timeoutMs`.
   */
  catchUp(name?: string, options?: { timeoutMs?: number }): Promise<Map<string, ReactionRunResult>>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface ReactorOptions {
  /** Safety net: every reaction runs this often even without a wake-up. */
  sweepIntervalMs?: number;
  /** Overrides every reaction's retry policy (tests shorten the waits). */
  retry?: Partial<RetryPolicy>;
  onError?: (error: unknown, reaction: string) => void;
}

export const needsAnotherLook = (result: ReactionRunResult) =>
  result.kind === 'busy' || (result.kind === 'caught_up' && result.waiting);

/** `Reactor.catchUp`, shared by both drivers (the BullMQ worker runs its jobs through it too). */
export async function catchUpReactions(
  deps: RunnerDeps,
  reactions: readonly Reaction[],
  name: string | undefined,
  {
    timeoutMs = 10_000,
    intervalMs = 25,
    retry,
  }: { timeoutMs?: number; intervalMs?: number; retry?: Partial<RetryPolicy> } = {},
): Promise<Map<string, ReactionRunResult>> {
  const targets = name ? [findReaction(reactions, name)] : reactions;
  const deadline = Date.now() + timeoutMs;
  const results = new Map<string, ReactionRunResult>();
  let pending = [...targets];
  for (;;) {
    for (const reaction of pending) results.set(reaction.name, await runReaction(deps, reaction, { retry }));
    pending = pending.filter((r) => needsAnotherLook(results.get(r.name)!));
    if (pending.length === 0 || Date.now() > deadline) return results;
    await sleep(intervalMs);
  }
}
