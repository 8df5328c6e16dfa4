import type { RunnerDeps } from '../runProjectionBatch';
import { deliver } from './deliver';
import { type Reaction, type RetryPolicy, retryPolicyOf } from './reaction';
import { failedAgain, listParked, resolveParked } from './reactionStore';

export interface RetriedEvent {
  eventId: string;
  eventType: string;
  outcome: 'delivered' | 'parked_again' | 'missing';
  error?: string;
}

/**
 * `qiraa reactions retry`: the reaction's parked events (or one of them), each read back from its stream and
 * handled again with the reaction's retry policy. Delivered: the row is kept, resolved. Failed again: it stays
 * parked with the new error. The consumer itself never touches parked events, so this is their only path.
 */
export async function retryParked(
  deps: RunnerDeps,
  reaction: Reaction,
  options: { eventId?: string; retry?: Partial<RetryPolicy> } = {},
): Promise<RetriedEvent[]> {
  const policy = retryPolicyOf(reaction, options.retry);
  const results: RetriedEvent[] = [];
  for (const parked of await listParked(deps.sql, { reaction: reaction.name, eventId: options.eventId })) {
    const [event] = await deps.store.readStream(parked.streamId, { from: parked.streamVersion, limit: 1 });
    if (!event || event.eventId !== parked.eventId) {
      results.push({ eventId: parked.eventId, eventType: parked.eventType, outcome: 'missing' });
      continue;
    }
    const outcome = await deliver(deps, reaction, event, policy);
    if (outcome.kind === 'handled') {
      await resolveParked(deps.sql, reaction.name, event.eventId);
      results.push({ eventId: event.eventId, eventType: event.type, outcome: 'delivered' });
    } else {
      await failedAgain(deps.sql, reaction.name, event.eventId, outcome.error, outcome.attempts);
      results.push({ eventId: event.eventId, eventType: event.type, outcome: 'parked_again', error: outcome.error });
    }
  }
  return results;
}
