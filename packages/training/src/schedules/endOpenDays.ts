import { inTransaction } from '@qiraa/db';
import { appendDayEvents, loadDay, retrying, type TrainingDeps } from '../commands/dayStream';
import { dayEndedEvent } from '../commands/endDay';

/**
 * Ends each listed day that is still open with `window_closed` at `at`, each in its own short transaction at the
 * version it was read at (a child answering meanwhile moves the stream: read again, and a day the answer ended
 * is left as it ended). How many this call ended.
 */
export async function endOpenDays(deps: TrainingDeps, dayIds: readonly string[], at: Date): Promise<number> {
  let ended = 0;
  for (const dayId of dayIds) {
    const did = await retrying(async () => {
      const fold = await loadDay(deps.store, dayId);
      if (!fold || fold.ended) return false;
      const written = await inTransaction(deps.sql, (uow) =>
        appendDayEvents(deps.store, uow, dayId, fold.version, [dayEndedEvent(fold, 'window_closed', at)]),
      );
      return written.length > 0;
    });
    if (did) ended++;
  }
  return ended;
}
