import { type Catalog, inGradeRange } from '../queries/catalogTypes';

export interface FormPositionRef {
  measureCode: string;
  formPosition: number;
}

export interface FormProblems {
  /** Positions 1..n (n = the measure's rows in the batch) that no row takes. */
  missingPositions: FormPositionRef[];
  /** Positions two or more rows take (listed once). */
  duplicatePositions: FormPositionRef[];
  /** Measures whose row count differs from the catalog's form_item_count. */
  countMismatch: { measureCode: string; expected: number; actual: number }[];
  /** Measures of the form whose grade range leaves out the form's grade. */
  measuresNotInGrade: string[];
}

export const hasFormProblems = (p: FormProblems) =>
  p.missingPositions.length + p.duplicatePositions.length + p.countMismatch.length + p.measuresNotInGrade.length > 0;

/**
 * The structure of a screening form, per measure: positions must run 1..n without gaps or repeats, and n
 * must equal the measure's form_item_count. Rows with an unknown or oral measure are left out (their rows
 * are rejected on their own). Results are sorted, so the report is stable.
 */
export function formProblems(rows: readonly FormPositionRef[], formGrade: number, catalog: Catalog): FormProblems {
  const byMeasure = new Map<string, number[]>();
  for (const row of rows) {
    const measure = catalog.measureByCode.get(row.measureCode);
    if (!measure || measure.formItemCount === null) continue;
    byMeasure.set(row.measureCode, [...(byMeasure.get(row.measureCode) ?? []), row.formPosition]);
  }
  const problems: FormProblems = {
    missingPositions: [],
    duplicatePositions: [],
    countMismatch: [],
    measuresNotInGrade: [],
  };
  for (const measureCode of [...byMeasure.keys()].sort()) {
    const positions = byMeasure.get(measureCode)!;
    const measure = catalog.measureByCode.get(measureCode)!;
    const taken = new Set(positions);
    for (let p = 1; p <= positions.length; p++) {
      if (!taken.has(p)) problems.missingPositions.push({ measureCode, formPosition: p });
    }
    const seen = new Set<number>();
    const repeated = new Set<number>();
    for (const p of positions) (seen.has(p) ? repeated : seen).add(p);
    for (const p of [...repeated].sort((a, b) => a - b)) {
      problems.duplicatePositions.push({ measureCode, formPosition: p });
    }
    if (positions.length !== measure.formItemCount) {
      problems.countMismatch.push({ measureCode, expected: measure.formItemCount!, actual: positions.length });
    }
    if (!inGradeRange(measure, formGrade)) problems.measuresNotInGrade.push(measureCode);
  }
  return problems;
}
