import { describe, expect, it } from 'vitest';
import { breakBeforeFlags } from './breakBefore';

describe('breakBeforeFlags', () => {
  it('marks the question right after the last question on each passage, in grades 3 and 4', () => {
    const served = ['p1', 'p1', 'p1', 'p2', 'p2', null, null];
    expect(breakBeforeFlags(3, served)).toEqual([false, false, false, true, false, true, false]);
    expect(breakBeforeFlags(4, served)).toEqual([false, false, false, true, false, true, false]);
  });

  it('never marks in grades 1 and 2', () => {
    expect(breakBeforeFlags(1, ['p1', 'p2', null])).toEqual([false, false, false]);
    expect(breakBeforeFlags(2, ['p1', 'p2', null])).toEqual([false, false, false]);
  });

  it('a passage that comes back later is not left yet; a passage last in the sitting marks nothing', () => {
    expect(breakBeforeFlags(3, ['p1', null, 'p1', 'p2'])).toEqual([false, false, false, true]);
    expect(breakBeforeFlags(3, [null, 'p1', 'p1'])).toEqual([false, false, false]);
    expect(breakBeforeFlags(3, [])).toEqual([]);
  });
});
