import type { AnySql } from '@qiraa/db';
import { contentHash } from '../engine/hash';
import { newContentId } from '../ids';

export type PinCause = 'import_approved' | 'positions_moved' | 'item_edited' | 'initial';

export interface ItemBankPinEntry {
  itemId: string;
  organizationId: string | null;
  externalId: string;
  version: number;
  revision: number;
  contentRole: string;
  measureCode: string | null;
  screeningFormId: string | null;
  formPosition: number | null;
  passageId: string | null;
}

/**
 * Snapshots every operational item (and its form position) as an item-bank pin. Call it inside the
 * transaction that changed the operational bank. An unchanged bank reuses the existing pin, so the id is
 * stable for equal content. Serialized by an advisory lock so two writers never race the hash.
 */
export async function takeItemBankPin(tx: AnySql, cause: PinCause): Promise<string> {
  await tx`select pg_advisory_xact_lock(hashtext('content_item_bank_pin'))`;
  const entries = await tx<ItemBankPinEntry[]>`
    select id as "itemId", organization_id as "organizationId", external_id as "externalId", version, revision,
           content_role as "contentRole", measure_code as "measureCode", screening_form_id as "screeningFormId",
           form_position as "formPosition", passage_id as "passageId"
    from content_items where status = 'operational' order by id`;
  const hash = contentHash(entries);
  const [existing] = await tx<{ id: string }[]>`select id from content_item_bank_pins where entries_hash = ${hash}`;
  if (existing) return existing.id;
  const id = newContentId('ibk');
  await tx`
    insert into content_item_bank_pins (id, cause, item_count, entries_hash, entries)
    values (${id}, ${cause}, ${entries.length}, ${hash}, ${tx.json(entries as never)})`;
  return id;
}

/** The newest pin: what a sitting starting now is served from. */
export async function currentItemBankPin(sql: AnySql): Promise<string | null> {
  const [row] = await sql<{ id: string }[]>`select id from content_item_bank_pins order by seq desc limit 1`;
  return row?.id ?? null;
}
