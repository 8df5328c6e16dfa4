import type { AnySql } from '@qiraa/db';
import { type ServingCandidate, servedList } from '../engine/servingOrder';
import type { WindowCode } from './catalogTypes';
import { selectWordLists, viewOf, type WordListRow, type WordListView } from './wordListView';

export const candidateOf = (r: WordListRow): ServingCandidate & { row: WordListRow } => ({
  id: r.id,
  scope: r.scope,
  organizationId: r.organization_id,
  schoolId: r.school_id,
  grade: r.grade,
  skillId: r.skill_id,
  window: r.window_code,
  version: r.version,
  publishedAt: r.published_at,
  row: r,
});

/**
 * Operational lists of a grade and skill in a place's scope chain: global, the organization's own (when
 * organizationId is given) and the school's own (when schoolId is given too).
 */
export async function operationalCandidates(
  sql: AnySql,
  at: { organizationId: string | null; schoolId: string | null; grade: number; skillId: string },
) {
  const rows = await selectWordLists(
    sql,
    sql`wl.status = 'operational' and wl.grade = ${at.grade} and wl.skill_id = ${at.skillId}
        and (wl.scope = 'global'
             or (wl.scope = 'organization' and wl.organization_id = ${at.organizationId})
             or (wl.scope = 'school' and wl.organization_id = ${at.organizationId} and wl.school_id = ${at.schoolId}))`,
  );
  return rows.map(candidateOf);
}

/**
 * The word list an assessment of this grade, skill and window is served at a place (organizationId null:
 * global content only; schoolId: one of that organization's schools): the most specific scope first (school,
 * organization, global), a window list before an all-window list, then the newest; operational lists only.
 * Null when no list serves the cell. The assessment context reads lists only through this.
 */
export async function pickWordList(
  sql: AnySql,
  input: {
    organizationId: string | null;
    schoolId?: string | null;
    grade: number;
    skillId: string;
    window: WindowCode;
  },
): Promise<WordListView | null> {
  const at = { ...input, schoolId: input.organizationId === null ? null : (input.schoolId ?? null) };
  const picked = servedList(await operationalCandidates(sql, at), at);
  return picked ? viewOf(picked.row) : null;
}
