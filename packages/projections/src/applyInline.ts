import type { UnitOfWork } from '@qiraa/db';
import type { RecordedEvent } from '@qiraa/eventstore';
import { lockProjectionShared } from './advisoryLock';
import type { Projection } from './projection';

/**
 * Read-your-writes: applies a command's own events to a read model inside the command's transaction.
 * The runner applies them again later; projections are idempotent per event, so that is harmless.
 */
export async function applyInline(
  uow: UnitOfWork,
  projection: Projection,
  events: readonly RecordedEvent[],
): Promise<void> {
  const relevant = events.filter((e) => projection.handles.includes(e.type));
  if (relevant.length === 0) return;
  await lockProjectionShared(uow.sql, projection.name);
  const ctx = { sql: uow.sql, table: (name: string) => name };
  for (const event of relevant) await projection.apply(ctx, event);
}
