import type { AnySql } from '@qiraa/db';
import { notFound, permissionDenied } from '@qiraa/http-kit';
import { type Caller, isSuperAdmin } from '@qiraa/identity';

/**
 * Blueprint scope, the same rule as content's: global blueprints (organization_id null) are written by the
 * super-admin and read by everyone; an organization's by its own back office. Another organization's is 404.
 */
export const canSee = (caller: Caller, organizationId: string | null): boolean =>
  organizationId === null || isSuperAdmin(caller) || caller.organizationId === organizationId;

export function assertCanChange(caller: Caller, organizationId: string | null, what: string): void {
  if (!canSee(caller, organizationId)) throw notFound(what);
  if (organizationId === null && !isSuperAdmin(caller)) {
    throw permissionDenied('global blueprints are changed by the super-admin only');
  }
}

/** SQL predicate on an `organization_id` column: the rows the caller can see. */
export const visibleScope = (sql: AnySql, caller: Caller, column = 'organization_id') =>
  isSuperAdmin(caller) ? sql`true` : sql`(${sql(column)} is null or ${sql(column)} = ${caller.organizationId ?? ''})`;

/** The organization a write lands in: the named one (404 when missing or not visible), else the caller's. */
export async function writeScope(
  sql: AnySql,
  caller: Caller,
  organizationId: string | undefined,
): Promise<string | null> {
  if (organizationId === undefined) return isSuperAdmin(caller) ? null : caller.organizationId;
  if (!canSee(caller, organizationId)) throw notFound('organization');
  const [row] = await sql`select 1 from organizations where id = ${organizationId}`;
  if (!row) throw notFound('organization');
  return organizationId;
}
