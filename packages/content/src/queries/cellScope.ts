import type { AnySql } from '@qiraa/db';
import { permissionDenied, validationFailed } from '@qiraa/http-kit';
import { type Caller, isSuperAdmin } from '@qiraa/identity';
import { namedOrganization, schoolOf } from '../scope';

/**
 * The blueprint scope a request names with its `organizationId` and `schoolId` query: both absent is the
 * global cell, a school needs its organization. The query names the cell for every caller alike (an
 * organization admin naming nothing reads the global cell), so one URL is one cell. Another organization or
 * a school outside the organization is 404; writing the global scope is the super-admin's only (403).
 */
export async function cellScopeOf(
  sql: AnySql,
  caller: Caller,
  query: { organizationId?: string | undefined; schoolId?: string | undefined },
  intent: 'read' | 'write',
): Promise<{ organizationId: string | null; schoolId: string | null }> {
  const organizationId = query.organizationId ?? null;
  const schoolId = query.schoolId ?? null;
  if (schoolId !== null && organizationId === null) {
    throw validationFailed([{ field: 'schoolId', issue: 'a school scope needs its organizationId' }]);
  }
  if (organizationId !== null) {
    await namedOrganization(sql, caller, organizationId);
    if (schoolId !== null) await schoolOf(sql, caller, organizationId, schoolId);
  } else if (intent === 'write' && !isSuperAdmin(caller)) {
    throw permissionDenied('the global blueprint is changed by the super-admin only');
  }
  return { organizationId, schoolId };
}
