import type { TrainingDeps } from '../commands/dayStream';
import { endDay } from '../commands/endDay';

/**
 * Ends each listed day that is still open with `window_closed` at `at`, each in its own short transaction at the
 * version it was read at (a child answering meanwhile moves the stream: `handleCommand` reads it again, and a
 * day the answer ended is left as it ended). How many this call ended.
 */
export async function endOpenDays(deps: TrainingDeps, dayIds: readonly string[], at: Date): Promise<number> {
  let ended = 0;
  for (const dayId of dayIds) {
    if (await endDay(deps, dayId, null, 'window_closed', at)) ended++;
  }
  return ended;
}
