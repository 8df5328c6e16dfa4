import { type Catalog, loadCatalog } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import type { ReadCell, WordListCell } from '../events/readEvents';

const oralMeasuresOf = (catalog: Catalog, cell: ReadCell, grade: number) =>
  catalog.measures.filter(
    (m) => m.mode === 'oral' && m.teacherCell === cell && grade >= m.gradeMin && grade <= m.gradeMax,
  );

/**
 * The catalog's scoring status of a cell's oral measures in a grade: provisional when any of them is (or when
 * the catalog has none), so a band is never called normed on a measure that is not.
 */
export async function scoringStatusOf(sql: AnySql, cell: ReadCell, grade: number): Promise<'normed' | 'provisional'> {
  const measures = oralMeasuresOf(await loadCatalog(sql), cell, grade);
  return measures.length > 0 && measures.every((m) => m.scoringStatus === 'normed') ? 'normed' : 'provisional';
}

/** The teacher-page cell a word list of this skill fills (the catalog's oral word-list measure), or null. */
export async function wordListCellOf(sql: AnySql, skillId: string): Promise<WordListCell | null> {
  const catalog = await loadCatalog(sql);
  const measure = catalog.measures.find(
    (m) =>
      m.mode === 'oral' &&
      m.skillId === skillId &&
      (m.teacherCell === 'oral_familiar_words' || m.teacherCell === 'oral_pseudowords'),
  );
  return (measure?.teacherCell as WordListCell | undefined) ?? null;
}
