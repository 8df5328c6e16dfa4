import type { AnySql } from '@qiraa/db';
import type { ItemBankPinEntry } from '../commands/takeItemBankPin';
import { breakBeforeFlags } from '../engine/breakBefore';
import type { SectionKey } from './catalogTypes';
import { loadCatalog } from './loadCatalog';

export interface ServedSlot {
  order: number;
  sectionKey: SectionKey | null;
  measureCode: string;
  formPosition: number;
  /** null: the pinned bank has nothing for this slot (a sitting stops here: no_eligible_item, no substitute). */
  itemId: string | null;
  itemVersion: number | null;
  passageId: string | null;
  breakBefore: boolean;
}

export interface DryRunReplay {
  pinnedItemBankId: string;
  pinTakenAt: string;
  formId: string;
  formStatus: 'draft' | 'operational' | 'retired';
  served: ServedSlot[];
  unserved: { measureCode: string; formPosition: number; itemId: string; reason: 'not_in_pinned_bank' }[];
  sections: { key: SectionKey; total: number }[];
}

export type DryRunOutcome =
  | { outcome: 'replayed'; replay: DryRunReplay }
  | { outcome: 'pin_not_found' }
  | { outcome: 'form_not_found' };

type PinnedEntry = Pick<ItemBankPinEntry, 'itemId' | 'version' | 'measureCode' | 'formPosition' | 'passageId'>;

/**
 * Replays, reading only, what a sitting pinned to an item bank would be served from one form: for each measure
 * in order, the form's questions in position order as the pin recorded them (id, version, position, passage).
 * A question the form holds today that the pin does not (a draft form's, or one added after the pin) cannot be
 * served: it is listed in `unserved` and its slot is served null. Same input, same answer: the pin is immutable
 * and the order is total (measure order, then position, then item id).
 */
export async function dryRunReplay(
  sql: AnySql,
  input: { pinnedItemBankId: string; formId: string; measureCodes: readonly string[] | null },
): Promise<DryRunOutcome> {
  const [pin] = await sql<{ taken_at: Date }[]>`
    select taken_at from content_item_bank_pins where id = ${input.pinnedItemBankId}`;
  if (!pin) return { outcome: 'pin_not_found' };
  const [form] = await sql<{ grade: number; status: DryRunReplay['formStatus'] }[]>`
    select grade, status from content_screening_forms where id = ${input.formId}`;
  if (!form) return { outcome: 'form_not_found' };
  const catalog = await loadCatalog(sql);

  const pinned = await sql<PinnedEntry[]>`
    select e->>'itemId' as "itemId", (e->>'version')::int as version, e->>'measureCode' as "measureCode",
           (e->>'formPosition')::int as "formPosition", e->>'passageId' as "passageId"
    from content_item_bank_pins p cross join jsonb_array_elements(p.entries) e
    where p.id = ${input.pinnedItemBankId} and e->>'screeningFormId' = ${input.formId}`;
  const current = await sql<{ id: string; measure_code: string; form_position: number }[]>`
    select id, measure_code, form_position from content_items where screening_form_id = ${input.formId}`;

  // Default plan: every measure the form (or the pin's view of it) holds, in catalog order.
  const held = new Set([...pinned.map((e) => e.measureCode), ...current.map((i) => i.measure_code)]);
  const plan = input.measureCodes ?? catalog.measures.filter((m) => held.has(m.measureCode)).map((m) => m.measureCode);

  const pinnedIds = new Set(pinned.map((e) => e.itemId));
  const slots: Omit<ServedSlot, 'order' | 'breakBefore'>[] = [];
  const unserved: DryRunReplay['unserved'] = [];
  const byPositionThenId = (a: { formPosition: number; id: string }, b: { formPosition: number; id: string }) =>
    a.formPosition - b.formPosition || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  for (const measureCode of plan) {
    const sectionKey = catalog.measureByCode.get(measureCode)?.sectionKey ?? null;
    const fromPin = pinned
      .filter((e) => e.measureCode === measureCode)
      .map((e) => ({ formPosition: e.formPosition as number, id: e.itemId, entry: e as PinnedEntry | null }));
    const missing = current
      .filter((i) => i.measure_code === measureCode && !pinnedIds.has(i.id))
      .map((i) => ({ formPosition: i.form_position, id: i.id, entry: null as PinnedEntry | null }));
    for (const m of [...missing].sort(byPositionThenId)) {
      unserved.push({ measureCode, formPosition: m.formPosition, itemId: m.id, reason: 'not_in_pinned_bank' });
    }
    for (const slot of [...fromPin, ...missing].sort(byPositionThenId)) {
      slots.push({
        sectionKey,
        measureCode,
        formPosition: slot.formPosition,
        itemId: slot.entry?.itemId ?? null,
        itemVersion: slot.entry?.version ?? null,
        passageId: slot.entry?.passageId ?? null,
      });
    }
  }

  const breaks = breakBeforeFlags(
    form.grade,
    slots.map((s) => s.passageId),
  );
  const served = slots.map((s, i) => ({ order: i + 1, ...s, breakBefore: breaks[i] ?? false }));
  const sections: DryRunReplay['sections'] = [];
  for (const s of served) {
    if (s.itemId === null || s.sectionKey === null) continue;
    const last = sections.at(-1);
    if (last?.key === s.sectionKey) last.total += 1;
    else sections.push({ key: s.sectionKey, total: 1 });
  }
  return {
    outcome: 'replayed',
    replay: {
      pinnedItemBankId: input.pinnedItemBankId,
      pinTakenAt: pin.taken_at.toISOString(),
      formId: input.formId,
      formStatus: form.status,
      served,
      unserved,
      sections,
    },
  };
}
