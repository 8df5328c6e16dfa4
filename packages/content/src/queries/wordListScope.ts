import type { AnySql } from '@qiraa/db';
import { notFound } from '@qiraa/http-kit';
import { type Caller, schoolOrganization } from '@qiraa/identity';
import type { WordListScope } from '../rules/wordListRules';
import { schoolOf, writeScope } from '../scope';

export interface WordListPlace {
  scope: WordListScope;
  organizationId: string | null;
  schoolId: string | null;
}

/**
 * The scope a new list lands in (docs/content.md, "Who may call"): organizationId omitted is the caller's
 * own organization (global for the super-admin); a schoolId makes it a school list of that organization.
 * The super-admin naming only a school writes into the school's organization. Another organization, or a
 * school that is missing or not of that organization: 404.
 */
export async function wordListPlace(
  sql: AnySql,
  caller: Caller,
  input: { organizationId?: string | undefined; schoolId?: string | undefined },
): Promise<WordListPlace> {
  let organizationId = await writeScope(sql, caller, input.organizationId);
  if (input.schoolId === undefined) {
    return { scope: organizationId === null ? 'global' : 'organization', organizationId, schoolId: null };
  }
  if (organizationId === null) {
    organizationId = (await schoolOrganization(sql, input.schoolId)) ?? null;
    if (organizationId === null) throw notFound('school');
  }
  await schoolOf(sql, caller, organizationId, input.schoolId);
  return { scope: 'school', organizationId, schoolId: input.schoolId };
}
