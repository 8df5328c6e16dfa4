import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import type { ErrorDetail } from '@qiraa/http-kit';
import { type FormItemPosition, type Move, planMoves } from '../engine/planMoves';
import { etagOf } from '../queries/itemViews';
import { takeItemBankPin } from './takeItemBankPin';

/** The spec's parked intermediate position: formPosition + 1000000 (never a real position: a form holds ≤ 60). */
export const PARK_OFFSET = 1_000_000;

export type MoveResult =
  | {
      outcome: 'moved';
      formId: string;
      measureCode: string;
      items: { itemId: string; formPosition: number; etag: string }[];
      itemBankPinId: string | null;
    }
  | {
      outcome: 'refused';
      reason: 'item_not_in_form' | 'cross_measure' | 'not_a_permutation' | 'stale';
      details: ErrorDetail[];
    }
  | { outcome: 'concurrent_move' }
  | { outcome: 'form_not_found' };

const LOCK_NOT_AVAILABLE = '55P03';
// Array type oids (text[], int4[]): postgres.js otherwise may send a first-use array untyped.
const TEXT_ARRAY = 1009;
const INT_ARRAY = 1007;

/**
 * Moves items of one measure of a screening form to new positions, in one transaction. The form row is locked
 * with NOWAIT: a second move on the same form while one runs is refused (concurrent_move) instead of queued,
 * because its ifMatch values were read before the first one changed the revisions. The unique (form, measure,
 * position) index is not deferrable, so every moved item is first parked at formPosition + 1000000 and then
 * set to its final position. Each moved item's revision is bumped (its ETag changes); an operational form's
 * change takes an item-bank pin.
 */
export async function moveFormPositions(sql: Sql, input: { formId: string; moves: Move[] }): Promise<MoveResult> {
  try {
    return await inTransaction(sql, async ({ sql: tx }): Promise<MoveResult> => {
      const [form] = await tx<{ status: string }[]>`
        select status from content_screening_forms where id = ${input.formId} for update nowait`;
      if (!form) return { outcome: 'form_not_found' };
      const formItems = await tx<FormItemPosition[]>`
        select id, measure_code as "measureCode", form_position as "formPosition", revision
        from content_items where screening_form_id = ${input.formId}`;
      const plan = planMoves(input.moves, formItems);
      if (!plan.ok) return { outcome: 'refused', reason: plan.reason, details: plan.details };

      const ids = input.moves.map((m) => m.itemId);
      const targets = input.moves.map((m) => m.formPosition);
      await tx`
        update content_items i set form_position = m.position + ${PARK_OFFSET}
        from unnest(${tx.array(ids, TEXT_ARRAY)}::text[], ${tx.array(targets, INT_ARRAY)}::int[]) as m(id, position)
        where i.id = m.id and i.screening_form_id = ${input.formId}`;
      await tx`
        update content_items set form_position = form_position - ${PARK_OFFSET}, revision = revision + 1,
                                 updated_at = now()
        where screening_form_id = ${input.formId} and id = any(${tx.array(ids, TEXT_ARRAY)}::text[])`;
      const itemBankPinId = form.status === 'operational' ? await takeItemBankPin(tx, 'positions_moved') : null;
      const items = await tx<{ id: string; form_position: number; revision: number }[]>`
        select id, form_position, revision from content_items
        where screening_form_id = ${input.formId} and measure_code = ${plan.measureCode} order by form_position`;
      return {
        outcome: 'moved',
        formId: input.formId,
        measureCode: plan.measureCode,
        items: items.map((i) => ({ itemId: i.id, formPosition: i.form_position, etag: etagOf(i.revision) })),
        itemBankPinId,
      };
    });
  } catch (error) {
    if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) return { outcome: 'concurrent_move' };
    throw error;
  }
}
