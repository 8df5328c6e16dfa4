import type { Sql } from '@qiraa/db';
import type { Caller } from '../engine/caller';
import { newSchoolId } from '../ids';
import { inOrganizationOr404, unprocessableField } from '../queries/scope';

export async function createSchool(
  sql: Sql,
  caller: Caller,
  input: { organizationId: string; name: string; country: string },
) {
  const [org] = await sql<{ country: string }[]>`select country from organizations where id = ${input.organizationId}`;
  inOrganizationOr404(caller, org ? input.organizationId : null, 'organization');
  if (org!.country !== input.country) {
    throw unprocessableField('country', "must equal the organization's country", 'country_mismatch');
  }
  const id = newSchoolId();
  await sql`insert into schools (id, organization_id, name, country)
            values (${id}, ${input.organizationId}, ${input.name}, ${input.country})`;
  return { id, organizationId: input.organizationId, name: input.name, country: input.country };
}
