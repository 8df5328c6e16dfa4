import type { EventShape, Recorded, RecordedEvent } from '@qiraa/eventstore';
import type { RunnerDeps } from '../runProjectionBatch';

/** How often a reaction tries one event before parking it, and how long it waits between tries. */
export interface RetryPolicy {
  /** Tries per event before it is parked (the first try included). */
  readonly maxAttempts: number;
  /** Wait before the second try; each further wait doubles, up to `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 200, maxDelayMs: 5_000 };

/** What a reaction's `handle` gets: the runner's pool and event store (never a transaction of the runner's). */
export interface ReactionContext extends RunnerDeps {
  /** 1 on the first try of this event, then 2, 3… (a re-drive by `qiraa reactions retry` starts at 1 again). */
  readonly attempt: number;
}

/**
 * A reaction: a named, checkpointed consumer of the global event log that performs an effect per event (a
 * notification, a credit in another context). Defined like a projection (what it handles, what it does), but
 * unlike a projection its effect is not rolled back with a checkpoint: delivery is at least once, so `handle`
 * must be idempotent, through a key derived from the event (notifications' `dispatch` takes a `dedupeKey`;
 * deterministic event ids make an append a duplicate). A throw is retried with backoff; after
 * `retry.maxAttempts` tries, or at once when `permanent(error)` says the error would only repeat, the event is
 * parked (`reaction_parked`) and the consumer moves on. Nothing is dropped: `qiraa reactions retry` re-drives it.
 */
export interface Reaction<E extends EventShape = EventShape> {
  readonly name: string;
  readonly handles: readonly E['type'][];
  /** `event` is one of `handles` (typed as `E`, the union of the events it handles, as for a projection). */
  handle(ctx: ReactionContext, event: Recorded<E>): Promise<void>;
  /** An error no retry can fix (a refused payload): parked at the first try. Default: every error is retried. */
  permanent?(error: unknown): boolean;
  readonly retry?: Partial<RetryPolicy>;
}

export function defineReaction<E extends EventShape = EventShape>(reaction: Reaction<E>): Reaction<E> {
  if (reaction.handles.length === 0) throw new Error(`reaction ${reaction.name} handles no event type`);
  return reaction;
}

export function retryPolicyOf(reaction: Reaction, override?: Partial<RetryPolicy>): RetryPolicy {
  return { ...DEFAULT_RETRY_POLICY, ...reaction.retry, ...override };
}

export function reactionsFor(reactions: readonly Reaction[], events: readonly RecordedEvent[]): Reaction[] {
  const types = new Set(events.map((e) => e.type));
  return reactions.filter((r) => r.handles.some((t) => types.has(t)));
}

export function findReaction(reactions: readonly Reaction[], name: string): Reaction {
  const found = reactions.find((r) => r.name === name);
  if (!found) {
    throw new UnknownReactionError(
      `unknown reaction "${name}"; known: ${reactions.map((r) => r.name).join(', ') || 'none'}`,
    );
  }
  return found;
}

export class UnknownReactionError extends Error {
  override name = 'UnknownReactionError';
}
