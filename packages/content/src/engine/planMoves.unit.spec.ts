import { describe, expect, it } from 'vitest';
import { type FormItemPosition, planMoves } from './planMoves';

const items: FormItemPosition[] = [
  { id: 'a', measureCode: 'text1_comprehension', formPosition: 1, revision: 1 },
  { id: 'b', measureCode: 'text1_comprehension', formPosition: 2, revision: 3 },
  { id: 'c', measureCode: 'text1_comprehension', formPosition: 3, revision: 1 },
  { id: 's', measureCode: 'spelling_choice', formPosition: 1, revision: 1 },
];
const reason = (moves: Parameters<typeof planMoves>[0]) => {
  const plan = planMoves(moves, items);
  return plan.ok ? plan.measureCode : plan.reason;
};

describe('planMoves', () => {
  it('accepts a swap and a rotation within one measure', () => {
    expect(
      reason([
        { itemId: 'a', formPosition: 2, ifMatch: 'r1' },
        { itemId: 'b', formPosition: 1, ifMatch: 'r3' },
      ]),
    ).toBe('text1_comprehension');
    expect(
      reason([
        { itemId: 'a', formPosition: 3, ifMatch: 'r1' },
        { itemId: 'b', formPosition: 1, ifMatch: 'r3' },
        { itemId: 'c', formPosition: 2, ifMatch: 'r1' },
      ]),
    ).toBe('text1_comprehension');
  });

  it('checks item_not_in_form, then cross_measure, then stale, then not_a_permutation', () => {
    // All four problems at once: the foreign item answers.
    expect(
      reason([
        { itemId: 'zz', formPosition: 9, ifMatch: 'r9' },
        { itemId: 's', formPosition: 5, ifMatch: 'r9' },
      ]),
    ).toBe('item_not_in_form');
    expect(
      reason([
        { itemId: 'a', formPosition: 9, ifMatch: 'r9' },
        { itemId: 's', formPosition: 1, ifMatch: 'r1' },
      ]),
    ).toBe('cross_measure');
    expect(reason([{ itemId: 'b', formPosition: 9, ifMatch: 'r1' }])).toBe('stale');
    expect(reason([{ itemId: 'b', formPosition: 9, ifMatch: 'r3' }])).toBe('not_a_permutation');
  });

  it('not_a_permutation: a taken position, a gap, an item moved twice', () => {
    expect(reason([{ itemId: 'a', formPosition: 2, ifMatch: 'r1' }])).toBe('not_a_permutation');
    expect(
      reason([
        { itemId: 'a', formPosition: 4, ifMatch: 'r1' },
        { itemId: 'c', formPosition: 1, ifMatch: 'r1' },
      ]),
    ).toBe('not_a_permutation');
    const twice = planMoves(
      [
        { itemId: 'a', formPosition: 1, ifMatch: 'r1' },
        { itemId: 'a', formPosition: 1, ifMatch: 'r1' },
      ],
      items,
    );
    expect(twice).toEqual({
      ok: false,
      reason: 'not_a_permutation',
      details: [{ field: 'moves[1].itemId', issue: 'item moved twice in one request' }],
    });
  });
});
