import type { AnySql } from '@qiraa/db';
import type { ContentKind } from '../queries/catalogTypes';
import type { AgreementSignoff, SourceDeclared } from '../schemas/importBody';
import type { ImportPlan, Insert } from './planTypes';

// Multi-row inserts stay well under PostgreSQL's 65,535 bind parameters (items have 26 columns).
const CHUNK = 1000;

async function insertAll(tx: AnySql, table: string, rows: readonly Insert[]) {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await tx`insert into ${tx(table)} ${tx(chunk as Record<string, never>[])}`;
  }
}

export interface BatchHeader {
  batchId: string;
  kind: ContentKind;
  organizationId: string | null;
  sourceDeclared: SourceDeclared | null;
  agreementSignoff: AgreementSignoff | null;
  decodedBytes: number;
  createdBy: number | null;
}

/** Writes the batch, its new content and its report rows (inside the import's transaction). */
export async function storeImport(tx: AnySql, header: BatchHeader, plan: ImportPlan): Promise<void> {
  const count = (f: (r: ImportPlan['rows'][number]) => boolean) => plan.rows.filter(f).length;
  await tx`
    insert into content_import_batches
      (id, organization_id, content_kind, source_declared, agreement_signoff, decoded_bytes, row_count,
       accepted_count, rejected_count, unchanged_count, form_problems, screening_form_id, form_rejected, created_by)
    values
      (${header.batchId}, ${header.organizationId}, ${header.kind},
       ${header.sourceDeclared ? tx.json(header.sourceDeclared) : null},
       ${header.agreementSignoff ? tx.json(header.agreementSignoff) : null}, ${header.decodedBytes},
       ${plan.rows.length}, ${count((r) => r.rejectReason === null && !r.unchanged)},
       ${count((r) => r.rejectReason !== null)}, ${count((r) => r.unchanged)},
       ${plan.formProblems ? tx.json(plan.formProblems as never) : null}, ${plan.screeningFormId},
       ${plan.formRejected}, ${header.createdBy})`;
  await insertAll(tx, 'content_passages', plan.passages);
  if (plan.form) await insertAll(tx, 'content_screening_forms', [plan.form]);
  await insertAll(tx, 'content_items', plan.items);
  await insertAll(tx, 'content_scaffold_prompts', plan.prompts);
  await insertAll(tx, 'content_word_lists', plan.wordLists);
  await insertAll(
    tx,
    'content_import_rows',
    plan.rows.map((r) => ({
      batch_id: header.batchId,
      entity: r.entity,
      row_index: r.rowIndex,
      external_id: r.externalId,
      passage_id: r.entity === 'passage' || r.entity === 'item' ? r.passageId : null,
      word_list_id: r.entity === 'word_list' ? r.id : null,
      scaffold_prompt_id: r.entity === 'scaffold_prompt' ? r.id : null,
      item_bank_id: r.entity === 'item' ? r.id : null,
      reject_reason: r.rejectReason,
      unchanged: r.unchanged,
    })),
  );
}
