import type { Sql } from '@qiraa/db';
import { conflict } from '@qiraa/http-kit';
import { newOrganizationId } from '../ids';

export interface NewOrganization {
  name: string;
  slug: string;
  country: string;
  defaultLocale: string;
}

export async function createOrganization(sql: Sql, input: NewOrganization) {
  const id = newOrganizationId();
  const [row] = await sql`
    insert into organizations (id, name, slug, country, default_locale)
    values (${id}, ${input.name}, ${input.slug}, ${input.country}, ${input.defaultLocale})
    on conflict (slug) do nothing returning id`;
  if (!row) throw conflict('slug_taken', 'an organization with this slug exists');
  return { id, ...input };
}
