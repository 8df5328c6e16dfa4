import type { AnySql } from '@qiraa/db';
import { type CellAddress, type CellProposal, scopeOf } from '../engine/blueprintTypes';
import { type BlueprintCheck, validateBlueprintCell } from '../engine/validateBlueprintCell';
import type { Catalog } from '../queries/catalogTypes';
import { operationalFormsFor } from '../queries/operationalForms';

/**
 * The blueprint rules for a proposed cell at an address, against today's catalog and the operational forms
 * the address's organization can be served from (global forms only for a global cell). Writes nothing; the
 * validate route and setBlueprintCell both call it, so a dry run and a write always agree.
 */
export async function checkBlueprintCell(
  sql: AnySql,
  catalog: Catalog,
  address: CellAddress,
  proposal: CellProposal,
): Promise<BlueprintCheck> {
  const forms = await operationalFormsFor(sql, address);
  return validateBlueprintCell(catalog, {
    grade: address.grade,
    scope: scopeOf(address),
    content: proposal.content,
    strict: proposal.strict ?? false,
    acknowledgeProvisional: proposal.acknowledgeProvisional ?? false,
    forms,
  });
}
