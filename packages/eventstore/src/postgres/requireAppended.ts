import type { AnySql } from '@qiraa/db';

// text[] (cast to uuid[]): without the type postgres.js can send a first-use array as a bare "a,b".
const TEXT = 1009;

/** The SQLSTATE `es_require_appended` raises (assert_failure). */
export const NOT_APPENDED = 'P0004';

/**
 * The guard of migration 0046 (PostgreSQL store only): sent right behind an append in the same unit of work,
 * it fails unless every one of `eventIds` was appended by this transaction, so statements pipelined behind it
 * (an inline projection, COMMIT) never commit without the events. Call it before `commitAfter`. For commands that send the append, its
 * projection and COMMIT in one exchange, before the append's outcome is back.
 */
export function requireAppended(sql: AnySql, eventIds: readonly string[]): Promise<unknown> {
  // Sent a macrotask later: postgres.js hands a query to its connection a few microtasks after it is awaited,
  // so a statement created in the same turn could otherwise overtake the append. By then every statement of
  // this turn (the append, the projection's) is on the connection; a COMMIT requested after this call
  // (`commitAfter`, also a macrotask later) follows it.
  return new Promise<void>((resolve) => setImmediate(resolve)).then(
    () => sql`select es_require_appended(${sql.array([...eventIds], TEXT)}::uuid[])`,
  );
}
