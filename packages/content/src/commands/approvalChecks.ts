import type { AnySql } from '@qiraa/db';
import type { PendingRows } from './approvalRows';
import type { VersionedTable } from './storedVersions';

/** Ids among `ids` of which a newer version (same scope and external id) is already operational. */
async function newerOperational(tx: AnySql, table: VersionedTable, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx<{ id: string }[]>`
    select p.id from ${tx(table)} p
    where p.id = any(${[...ids]}) and exists (
      select 1 from ${tx(table)} o
      where o.organization_id is not distinct from p.organization_id and o.external_id = p.external_id
        and o.version > p.version and o.status = 'operational')`;
  return rows.map((r) => r.id);
}

async function newerOperationalWordLists(tx: AnySql, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx<{ id: string }[]>`
    select p.id from content_word_lists p
    where p.id = any(${[...ids]}) and exists (
      select 1 from content_word_lists o
      where o.organization_id is not distinct from p.organization_id
        and o.school_id is not distinct from p.school_id and o.external_id = p.external_id
        and o.version > p.version and o.status = 'operational')`;
  return rows.map((r) => r.id);
}

/**
 * Rows this approval would make operational while a newer version is live: approving them would put an
 * older version back in service, so the whole approval is refused (409 newer_version_operational).
 */
export async function olderThanLive(tx: AnySql, rows: PendingRows): Promise<string[]> {
  return [
    ...(await newerOperational(tx, 'content_screening_forms', rows.formId ? [rows.formId] : [])),
    ...(await newerOperational(tx, 'content_items', rows.items)),
    ...(await newerOperational(tx, 'content_passages', rows.passages)),
    ...(await newerOperational(tx, 'content_scaffold_prompts', rows.prompts)),
    ...(await newerOperationalWordLists(tx, rows.wordLists)),
  ];
}

/**
 * Items this approval would serve whose passage would not be live: a passage still pending in another batch,
 * or declined (named as an exception here or earlier). Retired passages still show (rows are immutable).
 */
export async function itemsWithoutLivePassage(tx: AnySql, rows: PendingRows): Promise<string[]> {
  const itemIds = [...rows.items, ...rows.formItems];
  if (itemIds.length === 0) return [];
  const found = await tx<{ id: string }[]>`
    select i.id from content_items i join content_passages p on p.id = i.passage_id
    where i.id = any(${itemIds}) and p.status in ('pending_review', 'declined')
      and not (p.id = any(${rows.passages}))
    order by i.id`;
  return found.map((r) => r.id);
}
