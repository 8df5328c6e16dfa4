import type { AnySql } from '@qiraa/db';

/**
 * Whose a piece of content is, for the tenant checks that run before a handler: undefined when the id is unknown,
 * `organizationId` null for global content.
 */
export async function contentItemOwner(
  sql: AnySql,
  itemId: string,
): Promise<{ organizationId: string | null } | undefined> {
  const [item] = await sql<{ organization_id: string | null }[]>`
    select organization_id from content_items where id = ${itemId}`;
  return item && { organizationId: item.organization_id };
}

export async function screeningFormOwner(
  sql: AnySql,
  formId: string,
): Promise<{ organizationId: string | null } | undefined> {
  const [form] = await sql<{ organization_id: string | null }[]>`
    select organization_id from content_screening_forms where id = ${formId}`;
  return form && { organizationId: form.organization_id };
}
