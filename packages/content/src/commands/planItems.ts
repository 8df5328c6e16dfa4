import { itemHash } from '../engine/contentHashes';
import { itemInsert } from '../engine/itemInsert';
import { newContentId } from '../ids';
import { mapInSlices } from './inSlices';
import { accepted, type Insert, type PlanContext, type PlannedRow, rejected } from './planTypes';
import type { PreparedItem } from './prepareItems';
import { decideVersion, storedVersions } from './storedVersions';

/** Items of an item or content_bundle batch: each row on its own, a new version or unchanged. */
export async function planItems(
  ctx: PlanContext,
  prepared: readonly PreparedItem[],
): Promise<{ rows: PlannedRow[]; inserts: Insert[] }> {
  const stored = await storedVersions(
    ctx.tx,
    'content_items',
    ctx.organizationId,
    prepared.map((p) => p.row.external_id),
  );
  const hashes = await mapInSlices(prepared, (p) => (p.reason === null ? itemHash(p.content) : null));
  const rows: PlannedRow[] = [];
  const inserts: Insert[] = [];
  for (const [i, p] of prepared.entries()) {
    const externalId = p.row.external_id;
    const hash = hashes[i] ?? null;
    const decision = hash === null ? null : decideVersion(stored.get(externalId), hash);
    if (hash === null || decision === null || decision.kind === 'pending_version_exists') {
      rows.push(rejected('item', p.index, externalId, p.reason ?? 'pending_version_exists'));
      continue;
    }
    const id = decision.kind === 'unchanged' ? decision.id : newContentId('itm');
    rows.push(accepted('item', p.index, externalId, id, decision.kind === 'unchanged', p.passageId));
    if (decision.kind === 'new') {
      inserts.push(
        itemInsert(ctx, {
          id,
          externalId,
          version: decision.version,
          content: p.content,
          screeningFormId: null,
          contentHash: hash,
        }),
      );
    }
  }
  return { rows, inserts };
}
