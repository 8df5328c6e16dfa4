import type { AnySql } from '@qiraa/db';
import type { PendingRows } from './approvalRows';

type Table = 'content_items' | 'content_passages' | 'content_scaffold_prompts';

/**
 * Retires the live versions that share scope and external id with `ids` (the earlier versions). A form's
 * items are retired with their form only, never by an ordinary item's approval.
 */
async function retireEarlier(tx: AnySql, table: Table, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const isItems = table === 'content_items';
  const touched = isItems ? tx`, updated_at = now()` : tx``;
  const notForm = isItems ? tx`and o.content_role <> 'screening'` : tx``;
  const rows = await tx<{ id: string }[]>`
    update ${tx(table)} o set status = 'retired' ${touched}
    from ${tx(table)} p
    where p.id = any(${[...ids]}) and o.organization_id is not distinct from p.organization_id
      and o.external_id = p.external_id and o.id <> p.id and o.status = 'operational' ${notForm}
    returning o.id`;
  return rows.map((r) => r.id);
}

/** The earlier live version of the form, and its live items with it. */
async function retireEarlierForm(tx: AnySql, formId: string | null): Promise<{ forms: string[]; items: string[] }> {
  if (formId === null) return { forms: [], items: [] };
  const forms = await tx<{ id: string }[]>`
    update content_screening_forms o set status = 'retired', retired_at = now()
    from content_screening_forms p
    where p.id = ${formId} and o.organization_id is not distinct from p.organization_id
      and o.external_id = p.external_id and o.id <> p.id and o.status = 'operational'
    returning o.id`;
  const formIds = forms.map((r) => r.id);
  if (formIds.length === 0) return { forms: [], items: [] };
  const items = await tx<{ id: string }[]>`
    update content_items set status = 'retired', updated_at = now()
    where screening_form_id = any(${formIds}) and status = 'operational' returning id`;
  return { forms: formIds, items: items.map((r) => r.id) };
}

async function retireEarlierWordLists(tx: AnySql, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx<{ id: string }[]>`
    update content_word_lists o set status = 'retired', retired_at = now(), updated_at = now()
    from content_word_lists p
    where p.id = any(${[...ids]}) and o.organization_id is not distinct from p.organization_id
      and o.school_id is not distinct from p.school_id and o.external_id = p.external_id
      and o.id <> p.id and o.status = 'operational'
    returning o.id`;
  return rows.map((r) => r.id);
}

async function setStatus(tx: AnySql, table: Table, ids: readonly string[], status: 'operational' | 'declined') {
  if (ids.length === 0) return;
  const touched = table === 'content_items' ? tx`, updated_at = now()` : tx``;
  await tx`update ${tx(table)} set status = ${status} ${touched} where id = any(${[...ids]})`;
}

/**
 * Makes the approved rows operational and the exceptions declined (word lists named as exceptions stay
 * draft: their state table has no declined). Earlier live versions are retired first, so the one-live
 * indexes never see two. Returns the retired ids and whether operational items changed (a pin is due).
 */
export async function applyApproval(
  tx: AnySql,
  approved: PendingRows,
  exceptions: readonly string[],
): Promise<{ retired: string[]; itemsChanged: boolean }> {
  const form = await retireEarlierForm(tx, approved.formId);
  const items = await retireEarlier(tx, 'content_items', approved.items);
  const passages = await retireEarlier(tx, 'content_passages', approved.passages);
  const prompts = await retireEarlier(tx, 'content_scaffold_prompts', approved.prompts);
  const wordLists = await retireEarlierWordLists(tx, approved.wordLists);
  if (approved.formId !== null) {
    await tx`update content_screening_forms set status = 'operational', approved_at = now() where id = ${approved.formId}`;
  }
  await setStatus(tx, 'content_items', [...approved.formItems, ...approved.items], 'operational');
  await setStatus(tx, 'content_passages', approved.passages, 'operational');
  await setStatus(tx, 'content_scaffold_prompts', approved.prompts, 'operational');
  if (approved.wordLists.length > 0) {
    await tx`
      update content_word_lists set status = 'operational', published_at = now(), updated_at = now()
      where id = any(${approved.wordLists})`;
  }
  for (const table of ['content_items', 'content_passages', 'content_scaffold_prompts'] as const) {
    const ids = await tx<{ id: string }[]>`
      select id from ${tx(table)} where id = any(${[...exceptions]}) and status = 'pending_review'`;
    await setStatus(
      tx,
      table,
      ids.map((r) => r.id),
      'declined',
    );
  }
  const retired = [...form.forms, ...form.items, ...items, ...passages, ...prompts, ...wordLists];
  const itemsChanged = form.items.length + items.length + approved.formItems.length + approved.items.length > 0;
  return { retired, itemsChanged };
}
