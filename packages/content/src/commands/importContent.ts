import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { loadLanguageSafety } from '@qiraa/language-safety';
import { importBodyProblem, kindOf } from '../engine/bodyRules';
import { newContentId } from '../ids';
import { batchReport, type ImportReport } from '../queries/importBatches';
import { loadCatalog } from '../queries/loadCatalog';
import { IMPORT_SIZE_LIMITS, payloadTooLarge } from '../routes/sizeLimit';
import type { ImportBodyInput } from '../schemas/importBody';
import { lockContentScope } from './lockContentScope';
import { planImport } from './planImport';
import { storeImport } from './storeImport';

export interface ImportInput {
  /** The scope the content lands in, already resolved (null = global); `body.organizationId` is not read. */
  organizationId: string | null;
  /** The importing user; null for the operator CLI. */
  createdBy: number | null;
  /** A body valid against `ImportBody` (the route and the CLI validate it first). */
  body: ImportBodyInput;
  /** Decoded body bytes as received; defaults to the body's JSON size. */
  decodedBytes?: number;
}

/**
 * Imports one batch: body rules (422), the kind's size limit (413), then every row decided and the batch,
 * its new content (pending_review; forms and word lists draft) and its report written in one transaction.
 * Returns the batch report. Throws ApiError for a refused body; the rule set missing is 503.
 */
export async function importContent(deps: { sql: Sql }, input: ImportInput): Promise<ImportReport> {
  const { body, organizationId } = input;
  const problem = importBodyProblem(body);
  if (problem) throw problem;
  const kind = kindOf(body);
  const decodedBytes = input.decodedBytes ?? Buffer.byteLength(JSON.stringify(body));
  if (decodedBytes > IMPORT_SIZE_LIMITS[kind]) throw payloadTooLarge(IMPORT_SIZE_LIMITS[kind], kind);
  const catalog = await loadCatalog(deps.sql);
  const filter = await loadLanguageSafety(deps.sql);
  const batchId = newContentId('bat');
  const sourceDeclared = body.sourceDeclared ?? null;
  return inTransaction(deps.sql, async ({ sql: tx }) => {
    await lockContentScope(tx, organizationId);
    const ctx = { tx, kind, organizationId, batchId, createdBy: input.createdBy, catalog, filter, sourceDeclared };
    const plan = await planImport(ctx, body);
    const agreementSignoff = body.agreementSignoff ?? null;
    const header = { batchId, kind, organizationId, sourceDeclared, agreementSignoff, decodedBytes };
    await storeImport(tx, { ...header, createdBy: input.createdBy }, plan);
    const report = await batchReport(tx, batchId);
    if (!report) throw new Error(`import batch ${batchId} not readable after insert`);
    return report;
  }) as Promise<ImportReport>;
}
