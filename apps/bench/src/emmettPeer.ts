import { isExpectedVersionConflictError } from '@event-driven-io/emmett';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import pg from 'pg';
import type { ProbeEvent } from './workload';

/**
 * Emmett's PostgreSQL event store (the peer the ledger is compared with) on the bench database, with a
 * pool as large as ours. Its schema (emt_* tables) is created on the first append, which the warm-up pays.
 */
export function emmettPeer(url: string, poolSize: number) {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, application_name: 'qiraa-bench-emmett' });
  const store = getPostgreSQLEventStore(url, {
    connectionOptions: { pool },
    schema: { autoMigration: 'CreateOrUpdate' },
  });
  return {
    /**
     * One event, no expected version: the same contract as our `expected: 'any'`. Emmett reads the
     * stream's position and then updates it guarded by that position, so two writers on one stream can
     * collide; the loser retries, as a caller of `any` would expect the store to do.
     */
    async append(event: ProbeEvent): Promise<void> {
      for (let attempt = 1; ; attempt++) {
        try {
          await store.appendToStream(event.streamId, [
            { type: event.type, data: event.data, metadata: { ...event.metadata, messageId: event.eventId } },
          ]);
          return;
        } catch (error) {
          if (!isExpectedVersionConflictError(error) || attempt >= 5) throw error;
        }
      }
    },
    async count(type: string): Promise<number> {
      const { rows } = await pool.query<{ n: number }>(
        'select count(*)::int as n from emt_messages where message_type = $1',
        [type],
      );
      return rows[0]!.n;
    },
    async close(): Promise<void> {
      await store.close();
      await pool.end();
    },
  };
}
