import type { AnySql } from '@qiraa/db';
import { selectWordLists, viewOf, type WordListView } from './wordListView';

/**
 * The operational lists a place can be assessed with (the teacher's view, GET /api/word-lists): global lists,
 * the organization's own, and its schools' lists (only `schoolId`'s when given; none when null). Optionally one
 * grade. The assessment context reads lists through this, pickWordList and wordListVersion only.
 */
export async function operationalWordLists(
  sql: AnySql,
  at: { organizationId: string | null; schoolId?: string | null; grade?: number },
): Promise<WordListView[]> {
  const school =
    at.schoolId === undefined ? sql`true` : at.schoolId === null ? sql`false` : sql`wl.school_id = ${at.schoolId}`;
  const rows = await selectWordLists(
    sql,
    sql`wl.status = 'operational' and ${at.grade === undefined ? sql`true` : sql`wl.grade = ${at.grade}`}
        and (wl.scope = 'global'
             or (wl.scope = 'organization' and wl.organization_id = ${at.organizationId})
             or (wl.scope = 'school' and wl.organization_id = ${at.organizationId} and ${school}))`,
  );
  return rows.map(viewOf);
}

/** One version of a list by id, in any status (null when unknown): the caller checks scope and status. */
export async function wordListVersion(sql: AnySql, id: string): Promise<WordListView | null> {
  const [row] = await selectWordLists(sql, sql`wl.id = ${id}`);
  return row ? viewOf(row) : null;
}
