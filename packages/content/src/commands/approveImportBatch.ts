import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { batchReport, type ImportReport } from '../queries/importBatches';
import { applyApproval } from './approvalApply';
import { itemsWithoutLivePassage, olderThanLive } from './approvalChecks';
import { approvedRows, exceptionCandidates, pendingRowsOf } from './approvalRows';
import { lockContentScope } from './lockContentScope';
import { takeItemBankPin } from './takeItemBankPin';

/** From this many rows, an approval refreshes the planner statistics first. */
const LARGE_BATCH_ROWS = 500;

export type ApproveResult =
  | { outcome: 'approved'; report: ImportReport; itemBankPinId: string | null }
  | { outcome: 'not_found' }
  | { outcome: 'already_approved' }
  | { outcome: 'form_rejected' }
  | { outcome: 'form_is_one_unit' }
  | { outcome: 'exception_not_in_batch'; ids: string[] }
  | { outcome: 'newer_version_operational'; ids: string[] }
  | { outcome: 'passage_not_operational'; ids: string[] };

/**
 * Approves a batch: its pending rows become operational (exceptions declined), earlier live versions are
 * retired, a form goes live as one unit, and an item-bank pin is taken when operational items changed. The
 * batch row is locked (select … for update), so two approvals of one batch never both run. The caller
 * checks the tenant rule first.
 */
export async function approveImportBatch(
  deps: { sql: Sql },
  input: { batchId: string; approvedBy: number | null; exceptions: readonly string[] },
): Promise<ApproveResult> {
  // Every refusal comes before the first write, so it leaves the transaction with nothing to undo.
  return inTransaction(deps.sql, async ({ sql: tx }): Promise<ApproveResult> => {
    const [batch] = await tx<
      {
        organization_id: string | null;
        content_kind: string;
        status: string;
        form_rejected: boolean | null;
        row_count: number;
      }[]
    >`
        select organization_id, content_kind, status, form_rejected, row_count from content_import_batches
        where id = ${input.batchId} for update`;
    if (!batch) return { outcome: 'not_found' } as const;
    if (batch.status === 'approved') return { outcome: 'already_approved' } as const;
    if (batch.form_rejected) return { outcome: 'form_rejected' } as const;
    const exceptions = [...new Set(input.exceptions)];
    if (batch.content_kind === 'screening_form' && exceptions.length > 0) {
      return { outcome: 'form_is_one_unit' } as const;
    }
    await lockContentScope(tx, batch.organization_id);
    // A large import can grow the content tables many times over since autovacuum last sampled them; with
    // stale statistics the planner joins the batch's rows by scanning (seconds instead of milliseconds).
    if (batch.row_count >= LARGE_BATCH_ROWS) {
      await tx`analyze content_import_rows, content_items, content_passages, content_scaffold_prompts`;
    }
    const pending = await pendingRowsOf(tx, input.batchId);
    const candidates = exceptionCandidates(pending);
    const unknown = exceptions.filter((id) => !candidates.has(id));
    if (unknown.length > 0) return { outcome: 'exception_not_in_batch', ids: unknown } as const;
    const approved = approvedRows(pending, new Set(exceptions));
    const older = await olderThanLive(tx, approved);
    if (older.length > 0) return { outcome: 'newer_version_operational', ids: older } as const;
    const orphans = await itemsWithoutLivePassage(tx, approved);
    if (orphans.length > 0) return { outcome: 'passage_not_operational', ids: orphans } as const;

    const { retired, itemsChanged } = await applyApproval(tx, approved, exceptions);
    const itemBankPinId = itemsChanged ? await takeItemBankPin(tx, 'import_approved') : null;
    await tx`
        update content_import_batches
        set status = 'approved', approved_by = ${input.approvedBy}, approved_at = now(),
            approval = ${tx.json({ retired, exceptions, itemBankPinId })}
        where id = ${input.batchId}`;
    const report = await batchReport(tx, input.batchId);
    if (!report) throw new Error(`import batch ${input.batchId} not readable after approval`);
    return { outcome: 'approved', report, itemBankPinId } as const;
  }) as Promise<ApproveResult>;
}
