import { describe, expect, it } from 'vitest';
import type { Catalog, CatalogMeasure } from '../queries/catalogTypes';
import { formProblems, hasFormProblems } from './formProblems';

const measure = (measureCode: string, gradeMin: number, gradeMax: number, formItemCount: number | null) =>
  ({ measureCode, gradeMin, gradeMax, formItemCount }) as CatalogMeasure;
const catalog = {
  measureByCode: new Map([
    ['word_recognition', measure('word_recognition', 1, 2, 4)],
    ['text1_comprehension', measure('text1_comprehension', 1, 4, 3)],
    ['root_identification', measure('root_identification', 3, 4, 3)],
    ['orf_text', measure('orf_text', 1, 4, null)],
  ]),
} as unknown as Catalog;
const at = (measureCode: string, ...positions: number[]) =>
  positions.map((formPosition) => ({ measureCode, formPosition }));

describe('formProblems', () => {
  it('finds nothing in a complete form', () => {
    const problems = formProblems(
      [...at('word_recognition', 4, 2, 1, 3), ...at('text1_comprehension', 1, 2, 3)],
      1,
      catalog,
    );
    expect(hasFormProblems(problems)).toBe(false);
  });

  it('lists gaps and repeats against 1..n, n being the rows of the measure', () => {
    const problems = formProblems(at('word_recognition', 1, 1, 3, 5), 1, catalog);
    expect(problems.missingPositions).toEqual([
      { measureCode: 'word_recognition', formPosition: 2 },
      { measureCode: 'word_recognition', formPosition: 4 },
    ]);
    expect(problems.duplicatePositions).toEqual([{ measureCode: 'word_recognition', formPosition: 1 }]);
    expect(problems.countMismatch).toEqual([]);
  });

  it('compares the row count with the catalog form_item_count', () => {
    const problems = formProblems(at('text1_comprehension', 1, 2), 2, catalog);
    expect(problems.countMismatch).toEqual([{ measureCode: 'text1_comprehension', expected: 3, actual: 2 }]);
    expect(problems.missingPositions).toEqual([]);
  });

  it('names measures outside the form’s grade and leaves out unknown and oral measures', () => {
    const problems = formProblems(
      [...at('root_identification', 1, 2, 3), ...at('orf_text', 1), ...at('no_such', 1)],
      1,
      catalog,
    );
    expect(problems.measuresNotInGrade).toEqual(['root_identification']);
    expect(problems.countMismatch).toEqual([]);
    expect(hasFormProblems(problems)).toBe(true);
  });
});
