import type { AnySql } from '@qiraa/db';
import { notFound, permissionDenied } from '@qiraa/http-kit';
import { type Caller, isSuperAdmin, organizationExists, schoolOrganization } from '@qiraa/identity';

/**
 * Content scope (also the session blueprints', through the index's `contentScope`). Global content (organization_id null) is written by the super-admin and read by every
 * back-office caller; an organization's content is read and written by its own admins. Another
 * organization's content is 404, like a missing id.
 */

/** May the caller see content of this scope (null = global)? */
export const canSee = (caller: Caller, organizationId: string | null): boolean =>
  organizationId === null || isSuperAdmin(caller) || caller.organizationId === organizationId;

/** 404 unless the caller can see the content; 403 when they can see it but not change it (global content). */
export function assertCanChange(
  caller: Caller,
  organizationId: string | null,
  what: string,
  subject = 'content is',
): void {
  if (!canSee(caller, organizationId)) throw notFound(what);
  if (organizationId === null && !isSuperAdmin(caller)) {
    throw permissionDenied(`global ${subject} changed by the super-admin only`);
  }
}

/** SQL predicate on an `organization_id` column: the rows the caller can see. */
export const visibleScope = (sql: AnySql, caller: Caller, column = 'organization_id') =>
  isSuperAdmin(caller) ? sql`true` : sql`(${sql(column)} is null or ${sql(column)} = ${caller.organizationId ?? ''})`;

/**
 * The organization a write lands in: the named one (404 when missing or another organization's), else the
 * caller's own; null (global) only for the super-admin naming none.
 */
export async function writeScope(
  sql: AnySql,
  caller: Caller,
  organizationId: string | undefined,
): Promise<string | null> {
  if (organizationId === undefined) return isSuperAdmin(caller) ? null : caller.organizationId;
  await namedOrganization(sql, caller, organizationId);
  return organizationId;
}

/** An organization a request names: 404 when it is missing or not one the caller can see. */
export async function namedOrganization(sql: AnySql, caller: Caller, organizationId: string): Promise<void> {
  if (!canSee(caller, organizationId)) throw notFound('organization');
  if (!(await organizationExists(sql, organizationId))) throw notFound('organization');
}

/** A school of that organization the caller reaches; 404 otherwise (missing, or another organization's). */
export async function schoolOf(sql: AnySql, caller: Caller, organizationId: string, schoolId: string): Promise<void> {
  const schoolOrganizationId = await schoolOrganization(sql, schoolId);
  if (
    schoolOrganizationId === undefined ||
    schoolOrganizationId !== organizationId ||
    !canSee(caller, schoolOrganizationId)
  ) {
    throw notFound('school');
  }
}
