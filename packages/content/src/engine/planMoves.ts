import type { ErrorDetail } from '@qiraa/http-kit';
import { etagOf } from '../queries/itemViews';

export interface Move {
  itemId: string;
  formPosition: number;
  /** The item's ETag as the client saw it: `r<revision>`. */
  ifMatch: string;
}

export interface FormItemPosition {
  id: string;
  measureCode: string;
  formPosition: number;
  revision: number;
}

export type MovePlan =
  | { ok: true; measureCode: string }
  | { ok: false; reason: 'item_not_in_form' | 'cross_measure' | 'not_a_permutation' | 'stale'; details: ErrorDetail[] };

/**
 * Checks a batch of position moves against the form's items, in a fixed order: item_not_in_form, cross_measure,
 * stale (a client working from an old view should reload before anything else is judged), not_a_permutation
 * (after the moves, the measure's positions must be exactly 1..n; an item moved twice is not a permutation).
 * Pure: the command reads the items under the form's lock.
 */
export function planMoves(moves: readonly Move[], formItems: readonly FormItemPosition[]): MovePlan {
  const byId = new Map(formItems.map((i) => [i.id, i]));
  const field = (i: number, key: string) => `moves[${i}].${key}`;

  const foreign = moves.flatMap((m, i) => (byId.has(m.itemId) ? [] : [i]));
  if (foreign.length > 0) {
    return {
      ok: false,
      reason: 'item_not_in_form',
      details: foreign.map((i) => ({ field: field(i, 'itemId'), issue: 'not an item of this form' })),
    };
  }
  const moved = moves.map((m) => byId.get(m.itemId) as FormItemPosition);
  const measureCode = (moved[0] as FormItemPosition).measureCode;
  const otherMeasure = moved.flatMap((item, i) => (item.measureCode === measureCode ? [] : [i]));
  if (otherMeasure.length > 0) {
    return {
      ok: false,
      reason: 'cross_measure',
      details: otherMeasure.map((i) => ({
        field: field(i, 'itemId'),
        issue: `item of ${moved[i]?.measureCode}; one request moves items of one measure (${measureCode})`,
      })),
    };
  }
  const staleAt = moves.flatMap((m, i) => (m.ifMatch === etagOf((moved[i] as FormItemPosition).revision) ? [] : [i]));
  if (staleAt.length > 0) {
    return {
      ok: false,
      reason: 'stale',
      details: staleAt.map((i) => ({
        field: field(i, 'ifMatch'),
        issue: `item is at ${etagOf((moved[i] as FormItemPosition).revision)}`,
      })),
    };
  }
  const twice = moves.flatMap((m, i) => (moves.findIndex((x) => x.itemId === m.itemId) < i ? [i] : []));
  const final = new Map(
    formItems.filter((i) => i.measureCode === measureCode).map((i) => [i.id, i.formPosition] as const),
  );
  for (const m of moves) final.set(m.itemId, m.formPosition);
  const positions = [...final.values()].sort((a, b) => a - b);
  const isOneToN = positions.every((p, i) => p === i + 1);
  if (twice.length > 0 || !isOneToN) {
    return {
      ok: false,
      reason: 'not_a_permutation',
      details:
        twice.length > 0
          ? twice.map((i) => ({ field: field(i, 'itemId'), issue: 'item moved twice in one request' }))
          : [{ field: 'moves', issue: `positions of ${measureCode} would not be exactly 1..${positions.length}` }],
    };
  }
  return { ok: true, measureCode };
}
