import { postgresEventStore } from '@qiraa/eventstore';
import postgres from 'postgres';
import { seedReplayStudent } from './replay';

/**
 * Evidence only, never how the service writes: the same one-event-at-a-time recordMasteryEvent loop as the
 * replay seed, on a pool whose sessions run with `synchronous_commit = off`, so each COMMIT returns before
 * its WAL flush. The difference to the durable loop in the same run is what the commit flush costs.
 */
export async function recordWithoutCommitFlush(
  url: string,
  studentId: number,
  count: number,
  days: readonly string[],
): Promise<{ elapsedMs: number; perSecond: number }> {
  const sql = postgres(url, {
    max: 2,
    types: { bigint: postgres.BigInt },
    onnotice: () => {},
    connection: { application_name: 'qiraa-bench-async-commit', synchronous_commit: 'off' },
  });
  try {
    const seed = await seedReplayStudent({ sql, store: postgresEventStore(sql) }, studentId, count, days, () => {});
    return { elapsedMs: seed.elapsedMs, perSecond: (count / seed.elapsedMs) * 1000 };
  } finally {
    await sql.end({ timeout: 5 });
  }
}
