import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import type { ErrorDetail } from '@qiraa/http-kit';
import type { BlueprintRefusal, CellAddress, CellProposal, MeasureWarning } from '../engine/blueprintTypes';
import { loadCatalog } from '../queries/loadCatalog';
import { type StoredCellRow, storedCellAt } from '../queries/storedCells';
import { checkBlueprintCell } from './checkBlueprintCell';

export type SetBlueprintCellResult =
  | { ok: true; cell: StoredCellRow; measureWarnings: MeasureWarning[] }
  | { ok: false; reason: BlueprintRefusal | 'stale'; details: ErrorDetail[] };

// Array type oid: an empty list must still travel as text[].
const TEXT_ARRAY = 1009;

/**
 * Stores one diagnostic blueprint cell at its scope (replacing what that scope stored), after the blueprint
 * rules pass. Who may write which scope is the caller's business (the route checks it). One transaction;
 * writers of the same cell are serialized so `ifRevision` compares against what is really stored.
 */
export async function setBlueprintCell(
  sql: Sql,
  input: CellAddress & { body: CellProposal; updatedBy: number | null },
): Promise<SetBlueprintCellResult> {
  const { body, updatedBy, ...address } = input;
  const catalog = await loadCatalog(sql);
  return inTransaction(sql, async ({ sql: tx }): Promise<SetBlueprintCellResult> => {
    await tx`select pg_advisory_xact_lock(hashtext(${cellLockKey(address)}))`;
    const current = await storedCellAt(tx, address);
    if (body.ifRevision !== undefined && current?.revision !== body.ifRevision) {
      return {
        ok: false,
        reason: 'stale',
        details: [{ field: 'ifRevision', issue: `stored revision is ${current?.revision ?? 'none'}` }],
      };
    }
    const check = await checkBlueprintCell(tx, catalog, address, body);
    if (!check.ok) return check;
    const acknowledged = body.acknowledgeProvisional ?? false;
    if (current) {
      await tx`
        update content_diagnostic_blueprint_cells
        set kind = ${check.kind}, measures = ${tx.array(check.measures, TEXT_ARRAY)},
            sub_skill_ids = ${tx.array(check.subSkillIds, TEXT_ARRAY)}, acknowledged_provisional = ${acknowledged},
            revision = revision + 1, updated_by = ${updatedBy}, updated_at = now()
        where organization_id is not distinct from ${address.organizationId}
          and school_id is not distinct from ${address.schoolId}
          and grade = ${address.grade} and window_code = ${address.window}`;
    } else {
      await tx`
        insert into content_diagnostic_blueprint_cells
          (organization_id, school_id, grade, window_code, kind, measures, sub_skill_ids, acknowledged_provisional,
           updated_by)
        values (${address.organizationId}, ${address.schoolId}, ${address.grade}, ${address.window}, ${check.kind},
                ${tx.array(check.measures, TEXT_ARRAY)}, ${tx.array(check.subSkillIds, TEXT_ARRAY)}, ${acknowledged},
                ${updatedBy})`;
    }
    const cell = await storedCellAt(tx, address);
    return { ok: true, cell: cell as StoredCellRow, measureWarnings: check.measureWarnings };
  });
}

/** One advisory lock per cell address, shared by every writer of that cell. */
export const cellLockKey = (a: CellAddress) =>
  `content_blueprint_cell:${a.organizationId ?? ''}:${a.schoolId ?? ''}:${a.grade}:${a.window}`;
