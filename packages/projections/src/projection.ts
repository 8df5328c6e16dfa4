import type { TransactionSql } from '@qiraa/db';
import type { RecordedEvent } from '@qiraa/eventstore';

export interface ProjectionContext {
  readonly sql: TransactionSql;
  /** Physical name of one of the projection's tables: the live table, or its shadow during a rebuild. */
  table(name: string): string;
}

/**
 * A read model fed by the event log. `apply` must be idempotent per event (an event can reach it twice:
 * inline in its command's transaction, then from the runner), e.g. `on conflict (event_id) do nothing`.
 * Its tables are created by migrations and must not be referenced by foreign keys, so a rebuild can swap them.
 */
export interface Projection {
  readonly name: string;
  /** Bump when `apply` changes meaning: a stored older version is rebuilt before it runs again. */
  readonly version: number;
  readonly handles: readonly string[];
  readonly tables: readonly string[];
  apply(ctx: ProjectionContext, event: RecordedEvent): Promise<void>;
}

export function defineProjection(projection: Projection): Projection {
  if (projection.handles.length === 0) throw new Error(`projection ${projection.name} handles no event type`);
  return projection;
}
