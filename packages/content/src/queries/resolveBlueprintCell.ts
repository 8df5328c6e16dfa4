import type { AnySql } from '@qiraa/db';
import type { BlueprintScope, CellAddress, ResolvedCell } from '../engine/blueprintTypes';
import { type StoredCellRow, storedCellsAlong } from './storedCells';

const SPECIFIC_FIRST: readonly BlueprintScope[] = ['school', 'org', 'global'];

/** The most specific of the stored cells of one grade and window; `unset` when none is stored. */
export function mostSpecific(cells: readonly StoredCellRow[]): ResolvedCell {
  for (const scope of SPECIFIC_FIRST) {
    const cell = cells.find((c) => c.scope === scope);
    if (cell) {
      return {
        source: scope,
        kind: cell.kind,
        measures: [...cell.measures],
        subSkillIds: [...cell.subSkillIds],
        acknowledgeProvisional: cell.acknowledgeProvisional,
      };
    }
  }
  return { source: null, kind: 'unset', measures: [], subSkillIds: [], acknowledgeProvisional: false };
}

/**
 * The diagnostic blueprint cell that applies to a school (or an organization, or globally) for one grade and
 * window: the school's cell, else the organization's, else the global one, else `unset`. Assessment and the
 * content pack loader read the blueprint through this.
 */
export async function resolveBlueprintCell(sql: AnySql, address: CellAddress): Promise<ResolvedCell> {
  return mostSpecific(await storedCellsAlong(sql, address));
}
