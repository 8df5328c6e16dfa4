import { deepStrictEqual } from 'node:assert/strict';
import { inTransaction, type Sql } from '@qiraa/db';
import type { NewEvent, RecordedEvent } from '@qiraa/eventstore';
import { applyInline, type Projection } from '@qiraa/projections';
import { recordedEvents } from './recorded';

/** A stream's events for a projection spec: recorded as that stream would hold them. */
export interface GivenStream {
  readonly streamId: string;
  readonly events: readonly NewEvent[];
}

/**
 * Given events, then rows (Emmett's `PostgreSQLProjectionSpec`): applies a projection to events in one
 * transaction on a real PostgreSQL (the database of an int spec, its tables made by the migrations), through
 * the same `applyInline` → `applyBatch` path a command and the runner use, and compares what a query reads.
 * No HTTP, no app, no event store: read models of another context are written the way they are, not by hand.
 *
 *     await ProjectionSpecification.for(sql, skillStatusProjection)
 *       .given({ streamId: 'decision-7', events: [decided] })
 *       .thenRows((sql) => sql`select status from dec_skill_status where student_id = 7`, [{ status: 'secure' }]);
 */
export const ProjectionSpecification = {
  for(sql: Sql, projection: Projection) {
    return {
      given(...streams: readonly GivenStream[]) {
        const events: RecordedEvent[] = streams.flatMap((s) => recordedEvents(s.streamId, s.events));
        const apply = () => applyProjection(sql, projection, events);
        return {
          /** Applies the events (once) and answers them as recorded. */
          apply: async () => {
            await apply();
            return events;
          },
          async thenRows<Row>(query: (sql: Sql) => Promise<readonly Row[]>, expected: readonly Row[]): Promise<void> {
            await apply();
            deepStrictEqual([...(await query(sql))], expected);
          },
        };
      },
    };
  },
};

/** Applies `projection` to `events` in its own transaction, as a command's inline step would. */
export async function applyProjection(sql: Sql, projection: Projection, events: readonly RecordedEvent[]) {
  await inTransaction(sql, (uow) => applyInline(uow, projection, events));
}
