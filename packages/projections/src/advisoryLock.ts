import type { AnySql } from '@qiraa/db';

// First key of the two-key advisory lock space used by projections (second key: hash of the name).
const PROJECTION_LOCK_SPACE = 727_172_002;

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
