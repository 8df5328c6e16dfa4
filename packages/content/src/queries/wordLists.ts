import type { AnySql, Sql } from '@qiraa/db';
import { notFound } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import { servedList } from '../engine/servingOrder';
import type { WordListStatus } from '../rules/wordListRules';
import { canSee } from '../scope';
import type { Catalog, WindowCode } from './catalogTypes';
import { loadCatalog } from './loadCatalog';
import { candidateOf } from './pickWordList';
import { selectWordLists, viewOf, type WordListRow, type WordListView } from './wordListView';

export interface WordListCell {
  grade: number;
  skillId: string;
  window: WindowCode;
  minWords: number;
  maxWords: number;
  pickedListId: string | null;
}

export interface WordListVersionSummary {
  id: string;
  version: number;
  status: WordListStatus;
  wordCount: number;
  updatedAt: string;
}

/**
 * Grade × skill × window over the catalog's word-list cells; pickedListId is the list the service serves the
 * organization (no school) there, from the operational rows given.
 */
function cellsOf(catalog: Catalog, rows: readonly WordListRow[], organizationId: string | null): WordListCell[] {
  const candidates = rows.filter((r) => r.status === 'operational' && r.scope !== 'school').map(candidateOf);
  return catalog.wordListCells.flatMap((cell) =>
    catalog.windows.map(({ code: window }) => ({
      grade: cell.grade,
      skillId: cell.skillId,
      window,
      minWords: cell.minWords,
      maxWords: cell.maxWords,
      pickedListId:
        servedList(candidates, { organizationId, schoolId: null, grade: cell.grade, skillId: cell.skillId, window })
          ?.id ?? null,
    })),
  );
}

/** The skills that have word-list cells, with the grades they have one in. */
function skillsOf(catalog: Catalog) {
  return catalog.skills.flatMap((skill) => {
    const grades = catalog.wordListCells.filter((c) => c.skillId === skill.id).map((c) => c.grade);
    return grades.length === 0 ? [] : [{ id: skill.id, labelAr: skill.labelAr, grades }];
  });
}

/**
 * GET /api/admin/word-lists: every version (all statuses) of the lists in an organization's view — global,
 * the organization's own and its schools' — or global only (organizationId null), with the cells and skills.
 */
export async function wordListBuilderView(sql: Sql, organizationId: string | null) {
  const catalog = await loadCatalog(sql);
  const rows = await selectWordLists(
    sql,
    organizationId === null
      ? sql`wl.organization_id is null`
      : sql`(wl.organization_id is null or wl.organization_id = ${organizationId})`,
  );
  return { lists: rows.map(viewOf), cells: cellsOf(catalog, rows, organizationId), skills: skillsOf(catalog) };
}

/** One version the caller can see (404 otherwise), with every version of its externalId in its scope. */
export async function wordListWithVersions(
  sql: AnySql,
  caller: Caller,
  id: string,
): Promise<WordListView & { versions: WordListVersionSummary[] }> {
  const [row] = await selectWordLists(sql, sql`wl.id = ${id}`);
  if (!row || !canSee(caller, row.organization_id)) throw notFound('word list');
  const versions = await sql<(Omit<WordListVersionSummary, 'updatedAt'> & { updatedAt: Date })[]>`
    select id, version, status, cardinality(words) as "wordCount", updated_at as "updatedAt"
    from content_word_lists
    where coalesce(organization_id, '') = ${row.organization_id ?? ''} and coalesce(school_id, '') = ${row.school_id ?? ''}
      and external_id = ${row.external_id}
    order by version`;
  return { ...viewOf(row), versions: versions.map((v) => ({ ...v, updatedAt: v.updatedAt.toISOString() })) };
}
