import { type Catalog, type CatalogMeasure, inGradeRange, type ResolvedCell } from '@qiraa/content';
import { PAGE_CELLS, type PageCell } from '../events';

export const BLUEPRINT_STATUSES = ['ok', 'not_screened', 'legacy_skill_cell', 'catalog_gap'] as const;
export type BlueprintStatus = (typeof BLUEPRINT_STATUSES)[number];

export interface PageMeasure {
  measureCode: string;
  labelAr: string;
  mode: 'digital' | 'oral';
  cell: PageCell;
  minutesPerStudent: number;
}

export interface PageBlueprint {
  status: BlueprintStatus;
  /** The cell's measures the catalog knows for the grade, in cell order. */
  measures: PageMeasure[];
  /** Cells a student of this grade sits in this window; the others are `unavailable`. */
  cells: ReadonlySet<PageCell>;
  /** Catalog minutes per student for each cell (the sum over the cell's measures), versioned by `catalogVersion`. */
  minutesPerStudent: Record<PageCell, number>;
  catalogVersion: string;
}

const pageMeasure = (m: CatalogMeasure): PageMeasure => ({
  measureCode: m.measureCode,
  labelAr: m.labelAr,
  mode: m.mode,
  cell: m.teacherCell,
  minutesPerStudent: m.minutesPerStudent,
});

/**
 * The page's reading of the diagnostic blueprint cell of a class's grade and window:
 * - `ok`: a measures cell whose every measure the catalog has for the grade; its measures' cells are available;
 * - `catalog_gap`: a measures cell naming a measure the catalog lacks or has not for the grade, or no cell
 *   at all (`unset`: nothing says what to screen); the known measures' cells stay available;
 * - `legacy_skill_cell`: a sub-skill cell (no measures): the digital sitting only, planned at the grade's
 *   digital measures' minutes;
 * - `not_screened`: nothing is screened; every cell is unavailable.
 */
export function pageBlueprint(catalog: Catalog, grade: number, cell: ResolvedCell): PageBlueprint {
  const known = cell.kind === 'measures' ? cell.measures.map((code) => catalog.measureByCode.get(code)) : [];
  const fitting = known.filter((m): m is CatalogMeasure => !!m && inGradeRange(m, grade));
  const status: BlueprintStatus =
    cell.kind === 'not_screened'
      ? 'not_screened'
      : cell.kind === 'skills'
        ? 'legacy_skill_cell'
        : cell.kind === 'unset' || fitting.length < known.length
          ? 'catalog_gap'
          : 'ok';
  const planned =
    status === 'legacy_skill_cell'
      ? catalog.measures.filter((m) => m.mode === 'digital' && inGradeRange(m, grade))
      : fitting;
  const minutesPerStudent = Object.fromEntries(
    PAGE_CELLS.map((c) => [c, planned.filter((m) => m.teacherCell === c).reduce((s, m) => s + m.minutesPerStudent, 0)]),
  ) as Record<PageCell, number>;
  return {
    status,
    measures: fitting.map(pageMeasure),
    cells: new Set(planned.map((m) => m.teacherCell)),
    minutesPerStudent,
    catalogVersion: catalog.version,
  };
}
