import type { Sql, TransactionSql } from '@qiraa/db';
import type { EventShape, EventStore, Recorded } from '@qiraa/eventstore';

export interface ProjectionContext {
  readonly sql: TransactionSql;
  /** Physical name of one of the projection's tables: the live table, or its shadow during a rebuild. */
  table(name: string): string;
  /**
   * The runner's pool and event store, when the runner or a rebuild applies the batch (not inline): a
   * _reactor_ (a projection whose applyBatch appends its own context's events, docs/literacy-core.md) appends
   * through `store` joining `sql`'s transaction, so its events commit with the checkpoint.
   */
  readonly runner?: { readonly sql: Sql; readonly store: EventStore };
}

/**
 * A read model fed by the event log. The runner, a rebuild and the inline path (`applyInline`) all hand it
 * a whole batch, in log order, inside the transaction that also moves the checkpoint (or the command's own
 * transaction). `applyBatch` writes the batch with a few multi-row statements (one per table, arrays through
 * `unnest`), not one statement per event: see docs/architecture.md, "Writing a projection".
 *
 * It must be idempotent per event (an event can reach it twice: inline in its command's transaction, then
 * from the runner), e.g. `on conflict (event_id) do nothing`, and anything derived from the inserted rows
 * (counters, rollups) must count only the rows that insert really wrote (`returning`).
 * Its tables are created by migrations and must not be referenced by foreign keys, so a rebuild can swap them.
 */
export interface Projection<E extends EventShape = EventShape> {
  readonly name: string;
  /** Bump when `applyBatch` changes meaning: a stored older version is rebuilt before it runs again. */
  readonly version: number;
  readonly handles: readonly E['type'][];
  readonly tables: readonly string[];
  /** `events` holds only handled types, in log order; it may be empty. */
  applyBatch(ctx: ProjectionContext, events: readonly Recorded<E>[]): Promise<void>;
}

/**
 * `E` is the union of the events it handles (a context's union, or the part of another's it reads): the
 * runner, a rebuild and `applyInline` hand `applyBatch` only events of `handles`, as their contexts wrote
 * them, so the batch is typed here once (`applyBatch` is a method: a `Projection<E>` is a `Projection`).
 */
export function defineProjection<E extends EventShape = EventShape>(projection: Projection<E>): Projection<E> {
  if (projection.handles.length === 0) throw new Error(`projection ${projection.name} handles no event type`);
  return projection;
}

/** The events of `batch` of the given types, narrowed to them: the usual first step of an `applyBatch`. */
export { eventsOfType } from '@qiraa/eventstore';
