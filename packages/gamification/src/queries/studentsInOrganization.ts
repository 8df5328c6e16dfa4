import type { AnySql } from '@qiraa/db';

/** Which of `studentIds` are students of `organizationId` (of any organization when it is null). */
export async function studentsInOrganization(
  sql: AnySql,
  studentIds: readonly number[],
  organizationId: string | null,
): Promise<Set<number>> {
  if (studentIds.length === 0) return new Set();
  const rows = await sql<{ id: bigint }[]>`
    select id from users
    where id = any(${sql.array(studentIds.map(String))}::bigint[]) and primary_persona = 'STUDENT'
      and (${organizationId}::text is null or organization_id = ${organizationId})`;
  return new Set(rows.map((r) => Number(r.id)));
}
