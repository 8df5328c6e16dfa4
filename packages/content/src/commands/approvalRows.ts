import type { AnySql } from '@qiraa/db';

/**
 * What a batch still holds for review: every row its report points at that is still pending, the rows it
 * stored and unchanged rows whose stored version still waits from an earlier batch (a re-import can be
 * approved in place of the batch that stored them).
 */
export interface PendingRows {
  formId: string | null;
  /** Screening items of the batch's form: they follow the form, never an exception. */
  formItems: string[];
  items: string[];
  passages: string[];
  prompts: string[];
  wordLists: string[];
}

export async function pendingRowsOf(tx: AnySql, batchId: string): Promise<PendingRows> {
  const ids = async (query: Promise<readonly { id: string }[]>) => (await query).map((r) => r.id);
  const [form] = await tx<{ id: string }[]>`
    select f.id from content_import_batches b join content_screening_forms f on f.id = b.screening_form_id
    where b.id = ${batchId} and f.status = 'draft'`;
  const formId = form?.id ?? null;
  return {
    formId,
    formItems: await ids(tx`
      select id from content_items where screening_form_id = ${formId} and status = 'pending_review'`),
    items: await ids(tx`
      select i.id from content_import_rows r join content_items i on i.id = r.item_bank_id
      where r.batch_id = ${batchId} and r.entity = 'item' and i.status = 'pending_review'
        and i.content_role <> 'screening'`),
    passages: await ids(tx`
      select p.id from content_import_rows r join content_passages p on p.id = r.passage_id
      where r.batch_id = ${batchId} and r.entity = 'passage' and p.status = 'pending_review'`),
    prompts: await ids(tx`
      select p.id from content_import_rows r join content_scaffold_prompts p on p.id = r.scaffold_prompt_id
      where r.batch_id = ${batchId} and p.status = 'pending_review'`),
    wordLists: await ids(tx`
      select l.id from content_import_rows r join content_word_lists l on l.id = r.word_list_id
      where r.batch_id = ${batchId} and l.status = 'draft'`),
  };
}

/** The ids an approval may name as exceptions (a form's items never: the form is one unit). */
export const exceptionCandidates = (p: PendingRows) =>
  new Set([...p.items, ...p.passages, ...p.prompts, ...p.wordLists]);

/** The pending rows minus the exceptions: what this approval makes operational. */
export function approvedRows(p: PendingRows, exceptions: ReadonlySet<string>): PendingRows {
  const keep = (ids: string[]) => ids.filter((id) => !exceptions.has(id));
  return {
    formId: p.formId,
    formItems: p.formItems,
    items: keep(p.items),
    passages: keep(p.passages),
    prompts: keep(p.prompts),
    wordLists: keep(p.wordLists),
  };
}
