import { describe, expect, it } from 'vitest';
import { lowerMedianRank } from './statusPhrases';
import { trajectoryOf } from './trajectoryLabels';

describe('trajectoryOf', () => {
  it('reads the two latest decided windows', () => {
    expect(trajectoryOf([])).toBeNull();
    expect(trajectoryOf([null, null])).toBeNull();
    expect(trajectoryOf([1])).toBe('first_look');
    expect(trajectoryOf([null, 2, null])).toBe('first_look');
    expect(trajectoryOf([0, 1])).toBe('growing');
    expect(trajectoryOf([2, 2])).toBe('steady');
    expect(trajectoryOf([3, 1])).toBe('more_practice');
    // Only the last two count: a dip then a rise is growing now.
    expect(trajectoryOf([2, 0, 1])).toBe('growing');
    expect(trajectoryOf([0, null, 1])).toBe('growing');
  });
});

describe('lowerMedianRank', () => {
  it('takes the lower of the two middles (the cautious one)', () => {
    expect(lowerMedianRank([])).toBeNull();
    expect(lowerMedianRank([3])).toBe(3);
    expect(lowerMedianRank([0, 3])).toBe(0);
    expect(lowerMedianRank([3, 1, 2])).toBe(2);
    expect(lowerMedianRank([3, 3, 1, 0])).toBe(1);
  });
});
