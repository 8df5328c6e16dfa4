import type { AnySql } from '@qiraa/db';

export async function organizationExists(sql: AnySql, organizationId: string): Promise<boolean> {
  const [org] = await sql`select 1 from organizations where id = ${organizationId}`;
  return org !== undefined;
}
