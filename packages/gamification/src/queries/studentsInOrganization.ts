import type { AnySql } from '@qiraa/db';
import { studentsInOrganization as identityStudentsInOrganization } from '@qiraa/identity';

/** Which of `studentIds` are students of `organizationId` (of any organization when it is null). */
export async function studentsInOrganization(
  sql: AnySql,
  studentIds: readonly number[],
  organizationId: string | null,
): Promise<Set<number>> {
  if (studentIds.length === 0) return new Set();
  return identityStudentsInOrganization(sql, studentIds, organizationId);
}
