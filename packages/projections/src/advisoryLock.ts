import type { AnySql } from '@qiraa/db';
import type { Projection } from './projection';

// First key of the two-key advisory lock space used by projections (second key: hash of the name).
const PROJECTION_LOCK_SPACE = 727_172_002;

/*
 * One lock order for every path that writes a projection (docs/architecture.md, "One lock order"): first its
 * tables, in the order `projection.tables` lists them, then its advisory lock. The runner and inline
 * appliers take the tables in ROW EXCLUSIVE mode (writers never conflict with each other there), a
 * rebuild's swap in ACCESS EXCLUSIVE mode; so no path ever waits for a table while holding the projection's
 * lock. Plain readers take tables in any order, so the swap also bounds every wait (`swapLocks`) and yields.
 */

/** `lock table a, b in <mode> mode` for a projection's live tables, in their declared order (none: nothing). */
export async function lockProjectionTables(
  sql: AnySql,
  projection: Pick<Projection, 'tables'>,
  mode: 'row exclusive' | 'access exclusive',
): Promise<void> {
  if (projection.tables.length === 0) return;
  const names = projection.tables.map((table) => `"${table.replaceAll('"', '""')}"`).join(', ');
  await sql.unsafe(`lock table ${names} in ${mode} mode`);
}

/** Runner batches take it without waiting: another worker holding it is already doing the work. */
export async function tryLockProjection(sql: AnySql, name: string): Promise<boolean> {
  const [row] = await sql<{ locked: boolean }[]>`
    select pg_try_advisory_xact_lock(${PROJECTION_LOCK_SPACE}, hashtext(${name})) as locked`;
  return row?.locked === true;
}

/** A rebuild's swap waits for the running batch, then holds everyone else off until it commits. */
export async function lockProjection(sql: AnySql, name: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${PROJECTION_LOCK_SPACE}, hashtext(${name}))`;
}

/** Inline appliers share the lock with each other, never with a rebuild's swap. */
export async function lockProjectionShared(sql: AnySql, name: string): Promise<void> {
  await sql`select pg_advisory_xact_lock_shared(${PROJECTION_LOCK_SPACE}, hashtext(${name}))`;
}
