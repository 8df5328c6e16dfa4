import type { AnySql, Sql } from '@qiraa/db';
import { loadLanguageSafety } from '@qiraa/language-safety';
import { validateWordList, type WordListCheck } from '../engine/validateWordList';
import { loadCatalog } from '../queries/loadCatalog';
import type { WordListPlace } from '../queries/wordListScope';
import type { WordListContent } from '../rules/wordListRules';

/** The general tier of the filter as a predicate (no rule set: the error mapper answers 503). */
async function languageSafetyPredicate(pool: Sql): Promise<(text: string) => boolean> {
  const filter = await loadLanguageSafety(pool);
  return (text) => filter.check(text, 'general').kind === 'pass';
}

/** Another operational list of exactly this scope serves an overlapping cell (a different externalId). */
async function sharesCell(tx: AnySql, place: WordListPlace, externalId: string, c: WordListContent) {
  const [row] = await tx<{ shares: boolean }[]>`
    select exists (
      select 1 from content_word_lists
      where status = 'operational' and scope = ${place.scope}
        and coalesce(organization_id, '') = ${place.organizationId ?? ''}
        and coalesce(school_id, '') = ${place.schoolId ?? ''}
        and external_id <> ${externalId} and grade = ${c.grade} and skill_id = ${c.skillId}
        and (window_code is null or ${c.window}::text is null or window_code = ${c.window})
    ) as shares`;
  return row?.shares ?? false;
}

export interface WordListChecker {
  /**
   * The builder's checks on content about to be stored at a place. `operational`: the version would be
   * operational (the cell warning applies). Reads the cell through `tx`, so a transaction sees its own writes.
   */
  check(
    tx: AnySql,
    input: { place: WordListPlace; externalId: string; content: WordListContent; operational: boolean },
  ): Promise<WordListCheck>;
}

/**
 * Loads what the checks need (catalog, language-safety rule set; both cached per pool) before a write opens
 * its transaction, so the transaction never waits on a second pool connection.
 */
export async function wordListChecker(pool: Sql): Promise<WordListChecker> {
  const passesLanguageSafety = await languageSafetyPredicate(pool);
  const catalog = await loadCatalog(pool);
  return {
    async check(tx, input) {
      const shares = input.operational && (await sharesCell(tx, input.place, input.externalId, input.content));
      return validateWordList(input.content, {
        cells: catalog.wordListCells,
        passesLanguageSafety,
        sharesCellWhenOperational: shares,
      });
    },
  };
}
