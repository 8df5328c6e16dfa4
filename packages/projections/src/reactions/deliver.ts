import { setTimeout as sleep } from 'node:timers/promises';
import { type RecordedEvent, withWriteContext } from '@qiraa/eventstore';
import type { RunnerDeps } from '../runProjectionBatch';
import type { Reaction, RetryPolicy } from './reaction';

export type Delivery =
  | { kind: 'handled'; attempts: number }
  | { kind: 'failed'; attempts: number; error: string; permanent: boolean };

export const errorText = (error: unknown): string => {
  const e = error as { name?: string; message?: string; code?: string };
  const text = e?.message ? `${e.name ?? 'Error'}${e.code ? ` ${e.code}` : ''}: ${e.message}` : String(error);
  return text.slice(0, 2_000);
};

/** One event through `reaction.handle`, tried up to the policy's bound with doubling waits in between. */
export async function deliver(
  deps: RunnerDeps,
  reaction: Reaction,
  event: RecordedEvent,
  policy: RetryPolicy,
): Promise<Delivery> {
  let delay = policy.baseDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await withWriteContext(reactionWriteContext(reaction, event), () => reaction.handle({ ...deps, attempt }, event));
      return { kind: 'handled', attempts: attempt };
    } catch (error) {
      const permanent = reaction.permanent?.(error) === true;
      if (permanent || attempt >= policy.maxAttempts) {
        return { kind: 'failed', attempts: attempt, error: errorText(error), permanent };
      }
      await sleep(delay);
      delay = Math.min(delay * 2, policy.maxDelayMs);
    }
  }
}

/** What a reaction appends is caused by the event it handles, in that event's correlation and organization. */
function reactionWriteContext(reaction: Reaction, event: RecordedEvent) {
  const { correlationId, organizationId } = event.metadata ?? {};
  return {
    systemActor: `reaction:${reaction.name}`,
    organizationId: typeof organizationId === 'string' ? organizationId : null,
    correlationId: typeof correlationId === 'string' ? correlationId : event.eventId,
    causationId: event.eventId,
  };
}
