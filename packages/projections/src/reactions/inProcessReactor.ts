import type { RunnerDeps } from '../runProjectionBatch';
import { type Reaction, reactionsFor } from './reaction';
import { catchUpReactions, needsAnotherLook, type Reactor, type ReactorOptions } from './reactor';
import { runReaction } from './runReaction';

const RETRY_MS = 100;

/**
 * Without Redis the API drives its reactions itself, like its projections: at most one run per reaction in
 * this process, a wake-up during a run asks for one more after it, a sweep as the safety net. Other processes
 * on the same database may run the same reactions; the advisory lock lets one of them work at a time.
 */
export function inProcessReactor(
  deps: RunnerDeps,
  reactions: readonly Reaction[],
  options: ReactorOptions = {},
): Reactor {
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  let sweep: NodeJS.Timeout | undefined;
  let stopped = true;

  const schedule = (reaction: Reaction): void => {
    if (stopped) return;
    if (running.has(reaction.name)) {
      again.add(reaction.name);
      return;
    }
    const run = runReaction(deps, reaction, { retry: options.retry })
      .then((result) => {
        if (needsAnotherLook(result)) setTimeout(() => schedule(reaction), RETRY_MS).unref();
      })
      .catch((error) => options.onError?.(error, reaction.name))
      .finally(() => {
        running.delete(reaction.name);
        if (again.delete(reaction.name)) schedule(reaction);
      });
    running.set(reaction.name, run);
  };

  return {
    mode: 'in_process',
    reactions,
    wake: (events) => reactionsFor(reactions, events).forEach(schedule),
    catchUp: (name, o) => catchUpReactions(deps, reactions, name, { ...o, retry: options.retry }),
    async start() {
      stopped = false;
      reactions.forEach(schedule);
      sweep = setInterval(() => reactions.forEach(schedule), options.sweepIntervalMs ?? 5000);
      sweep.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(sweep);
      while (running.size > 0) await Promise.allSettled([...running.values()]);
    },
  };
}
