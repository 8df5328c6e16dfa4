import type { Catalog } from '../queries/catalogTypes';
import type { MeasureWarning, ResolvedCell } from './blueprintTypes';
import { type FormCoverage, validateBlueprintCell } from './validateBlueprintCell';

/**
 * Warnings about the cell that applies today: the write-time rules re-run against today's catalog and forms
 * (never strict). A stored cell those rules now refuse is one `invalid_cell` warning; unset and not-screened
 * cells carry none (the preview names those two kinds as warnings of its own).
 */
export function resolvedCellWarnings(
  catalog: Catalog,
  grade: number,
  cell: ResolvedCell,
  forms: readonly FormCoverage[],
): { invalid: boolean; measureWarnings: MeasureWarning[] } {
  if (cell.source === null || cell.kind === 'unset' || cell.kind === 'not_screened') {
    return { invalid: false, measureWarnings: [] };
  }
  const check = validateBlueprintCell(catalog, {
    grade,
    scope: cell.source,
    content: cell.kind === 'skills' ? { subSkillIds: cell.subSkillIds } : { measures: cell.measures },
    strict: false,
    acknowledgeProvisional: cell.acknowledgeProvisional,
    forms,
  });
  if (!check.ok) return { invalid: true, measureWarnings: [{ code: 'invalid_cell', measureCode: null }] };
  return { invalid: false, measureWarnings: check.measureWarnings };
}
