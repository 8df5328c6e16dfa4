import type { UnitOfWork } from '@qiraa/db';
import type { RecordedEvent } from '@qiraa/eventstore';
import { lockProjectionShared, lockProjectionTables } from './advisoryLock';
import type { Projection } from './projection';

/**
 * Read-your-writes: applies a command's own events to a read model inside the command's transaction.
 * The runner applies them again later; projections are idempotent per event, so that is harmless. The same
 * `applyBatch` the runner and a rebuild call, so there is one code path.
 */
export async function applyInline(
  uow: UnitOfWork,
  projection: Projection,
  events: readonly RecordedEvent[],
): Promise<void> {
  const relevant = events.filter((e) => projection.handles.includes(e.type));
  if (relevant.length === 0) return;
  const ctx = { sql: uow.sql, table: (name: string) => name };
  // Pipelined: the lock statements are sent first and run, in the one lock order (tables, then the
  // projection's lock: advisoryLock.ts), before the batch's statements queued behind them.
  await Promise.all([
    lockProjectionTables(uow.sql, projection, 'row exclusive'),
    lockProjectionShared(uow.sql, projection.name),
    projection.applyBatch(ctx, relevant),
  ]);
}
