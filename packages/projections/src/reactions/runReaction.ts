import type { RunnerDeps } from '../runProjectionBatch';
import { deliver } from './deliver';
import { type Reaction, type RetryPolicy, retryPolicyOf } from './reaction';
import { advanceReaction, loadReactionCheckpoint } from './reactionStore';

// First key of the two-key advisory lock space of reactions (projections use 727_172_002).
const REACTION_LOCK_SPACE = 727_172_003;

export type ReactionRunResult =
  /** `waiting`: committed events sit behind an older open transaction; look again shortly. */
  | { kind: 'caught_up'; handled: number; parked: number; waiting: boolean }
  /** Another consumer (this process or another) holds the reaction and is doing the work. */
  | { kind: 'busy' };

export interface RunReactionOptions {
  batchSize?: number;
  retry?: Partial<RetryPolicy>;
}

/**
 * Runs one reaction to the visible head: one consumer at a time across every process (a session-level
 * advisory lock on a reserved connection, so the lock lives exactly as long as the consumer's connection),
 * each event handled with retries, a failed one parked, the checkpoint moved past each event by
 * compare-and-set. Effects commit on their own (the handler's), before the checkpoint: a crash in between
 * re-delivers the event, which the handler's dedupe key absorbs (at least once, effectively once).
 */
export async function runReaction(
  deps: RunnerDeps,
  reaction: Reaction,
  options: RunReactionOptions = {},
): Promise<ReactionRunResult> {
  const policy = retryPolicyOf(reaction, options.retry);
  const lockHolder = await deps.sql.reserve();
  try {
    const [row] = await lockHolder<{ locked: boolean }[]>`
      select pg_try_advisory_lock(${REACTION_LOCK_SPACE}, hashtext(${reaction.name})) as locked`;
    if (row?.locked !== true) return { kind: 'busy' };
    try {
      return await consume(deps, reaction, policy, options.batchSize ?? 100);
    } finally {
      await lockHolder`select pg_advisory_unlock(${REACTION_LOCK_SPACE}, hashtext(${reaction.name}))`.catch(() => {});
    }
  } finally {
    lockHolder.release();
  }
}

async function consume(
  deps: RunnerDeps,
  reaction: Reaction,
  policy: RetryPolicy,
  batchSize: number,
): Promise<ReactionRunResult> {
  let handled = 0;
  let parked = 0;
  for (;;) {
    let at = await loadReactionCheckpoint(deps.sql, reaction.name);
    const batch = await deps.store.readAll({ after: at, limit: batchSize, types: reaction.handles });
    for (const event of batch.events) {
      const outcome = await deliver(deps, reaction, event, policy);
      const failed =
        outcome.kind === 'failed' ? { event, error: outcome.error, attempts: outcome.attempts } : undefined;
      // Another consumer moved the checkpoint (this one's lock went with a dropped connection): stop here.
      if (!(await advanceReaction(deps.sql, reaction.name, at, event.position, 1, failed))) return { kind: 'busy' };
      at = event.position;
      if (failed) parked++;
      else handled++;
    }
    // Past the skipped types up to the batch's end, so the next read starts there.
    if (batch.checkpoint !== at && !(await advanceReaction(deps.sql, reaction.name, at, batch.checkpoint, 0))) {
      return { kind: 'busy' };
    }
    if (batch.caughtUp) return { kind: 'caught_up', handled, parked, waiting: batch.waiting === true };
  }
}
