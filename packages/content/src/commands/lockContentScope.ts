import type { AnySql } from '@qiraa/db';

/**
 * Serializes the writers that number versions in one scope (imports, approvals, item edits): each reads the
 * newest version and writes newest + 1, so two of them at once would collide on the unique version key.
 */
export async function lockContentScope(tx: AnySql, organizationId: string | null): Promise<void> {
  await tx`select pg_advisory_xact_lock(hashtext(${`content_scope:${organizationId ?? 'global'}`}))`;
}
