import type { AnySql } from '@qiraa/db';
import { permissionDenied } from '@qiraa/http-kit';
import { type Caller, holds, isSuperAdmin } from '../engine/caller';
import { decodeNameCursor, namePage } from './namePage';

interface OrganizationRow {
  id: string;
  name: string;
  slug: string;
  country: string;
  default_locale: string;
  disabled: boolean;
}

export const ORGANIZATION_ID = /^org_[A-Za-z0-9]{12}$/;

/**
 * GET /api/organizations: every organization for the super-scope administrator; their own one for an
 * organization admin or manager (the staff whose reach is the organization); 403 for everyone else, whose
 * reach is a school, classes or children. By name, then id, cursor-paged.
 */
export async function listOrganizations(sql: AnySql, caller: Caller, page: { cursor?: string; limit: number }) {
  const all = isSuperAdmin(caller);
  if (!all && !holds(caller, 'MANAGE_ORG', 'VIEW_ORGANIZATION')) throw permissionDenied();
  const after = page.cursor === undefined ? null : decodeNameCursor(page.cursor, ORGANIZATION_ID);
  const rows = await sql<OrganizationRow[]>`
    select id, name, slug, country, default_locale, disabled_at is not null as disabled
    from organizations
    where ${all ? sql`true` : sql`id = ${caller.organizationId}`}
      ${after ? sql`and (name, id) > (${after.name}, ${after.id})` : sql``}
    order by name, id
    limit ${page.limit + 1}`;
  return namePage(rows, page.limit, (r) => ({
    id: r.id,
    name: r.name,
    slug: r.slug,
    country: r.country,
    defaultLocale: r.default_locale,
    disabled: r.disabled,
  }));
}
