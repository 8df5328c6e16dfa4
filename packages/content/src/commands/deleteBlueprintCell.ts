import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import type { CellAddress } from '../engine/blueprintTypes';
import { storedCellAt } from '../queries/storedCells';
import { cellLockKey } from './setBlueprintCell';

export type DeleteBlueprintCellResult =
  | { ok: true }
  | { ok: false; reason: 'not_stored' }
  | { ok: false; reason: 'stale'; storedRevision: number };

/**
 * Removes the cell stored at exactly this scope, so the next scope up applies again (school → organization →
 * global → unset). Serialized with setBlueprintCell on the same cell.
 */
export async function deleteBlueprintCell(
  sql: Sql,
  input: CellAddress & { ifRevision?: number },
): Promise<DeleteBlueprintCellResult> {
  const { ifRevision, ...address } = input;
  return inTransaction(sql, async ({ sql: tx }): Promise<DeleteBlueprintCellResult> => {
    await tx`select pg_advisory_xact_lock(hashtext(${cellLockKey(address)}))`;
    const current = await storedCellAt(tx, address);
    if (!current) return { ok: false, reason: 'not_stored' };
    if (ifRevision !== undefined && current.revision !== ifRevision) {
      return { ok: false, reason: 'stale', storedRevision: current.revision };
    }
    await tx`
      delete from content_diagnostic_blueprint_cells
      where organization_id is not distinct from ${address.organizationId}
        and school_id is not distinct from ${address.schoolId}
        and grade = ${address.grade} and window_code = ${address.window}`;
    return { ok: true };
  });
}
