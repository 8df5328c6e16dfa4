import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { conflict, notFound } from '@qiraa/http-kit';
import { type BatchReport, batchReport } from '../queries/blueprintQueries';

/**
 * Approves a pending batch in one transaction (the batch row locked): its pending blueprints become
 * operational and visible in the catalog; the earlier operational version of each external id is retired
 * (the catalog shows one version per blueprint; drafts keep the version they were pinned to). A second
 * approval is 409 already_approved.
 */
export async function approveBlueprintBatch(
  deps: { sql: Sql },
  input: { batchId: string; approvedBy: number | null },
): Promise<BatchReport & { retired: string[] }> {
  return (await inTransaction(deps.sql, async ({ sql: tx }) => {
    const [batch] = await tx<{ status: string; organization_id: string | null }[]>`
      select status, organization_id from ses_blueprint_batches where id = ${input.batchId} for update`;
    if (!batch) throw notFound('import batch');
    if (batch.status !== 'pending_review') throw conflict('already_approved', 'the batch is already approved');
    const approved = await tx<{ id: string }[]>`
      update ses_blueprints set status = 'operational', approved_at = now()
      where batch_id = ${input.batchId} and status = 'pending_review' returning id`;
    const ids = approved.map((a) => a.id);
    // Only an older operational version is retired; a version approved after a newer one went live is
    // retired itself (the catalog shows the newest).
    const retired = await tx<{ id: string }[]>`
      update ses_blueprints o set status = 'retired'
      from ses_blueprints a
      where a.id = any(${ids}) and o.external_id = a.external_id
        and coalesce(o.organization_id, '') = coalesce(a.organization_id, '')
        and o.status = 'operational' and o.id <> a.id and o.version < a.version
      returning o.id`;
    const superseded = await tx<{ id: string }[]>`
      update ses_blueprints a set status = 'retired'
      where a.id = any(${ids}) and exists (
        select 1 from ses_blueprints n
        where n.external_id = a.external_id and coalesce(n.organization_id, '') = coalesce(a.organization_id, '')
          and n.status = 'operational' and n.version > a.version)
      returning a.id`;
    await tx`
      update ses_blueprint_batches set status = 'operational', approved_by = ${input.approvedBy}, approved_at = now()
      where id = ${input.batchId}`;
    const report = (await batchReport(tx, input.batchId))!;
    return { ...report, retired: [...retired, ...superseded].map((r) => r.id).sort() };
  })) as BatchReport & { retired: string[] };
}
