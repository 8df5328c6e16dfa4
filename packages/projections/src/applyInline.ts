import type { UnitOfWork } from '@qiraa/db';
import type { RecordedEvent } from '@qiraa/eventstore';
import { lockProjectionShared } from './advisoryLock';
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
  // Pipelined: the lock statement is sent first and runs before the batch's statements queued behind it.
  await Promise.all([lockProjectionShared(uow.sql, projection.name), projection.applyBatch(ctx, relevant)]);
}
