import { describe, expect, it } from 'vitest';
import { BoundedCache } from './boundedCache';

describe('BoundedCache', () => {
  it('keeps at most its capacity, forgetting the least recently used entry first', () => {
    const cache = new BoundedCache<number, string>(2);
    cache.set(1, 'a');
    cache.set(2, 'b');
    expect(cache.get(1)).toBe('a'); // 2 is now the least recently used
    cache.set(3, 'c');
    expect(cache.size).toBe(2);
    expect(cache.get(2)).toBeUndefined();
    expect(cache.get(1)).toBe('a');
    expect(cache.get(3)).toBe('c');
  });

  it('drops entries by value and all at once', () => {
    const cache = new BoundedCache<number, string>(10);
    for (const [k, v] of [
      [1, 'org_a'],
      [2, 'org_b'],
      [3, 'org_a'],
    ] as const)
      cache.set(k, v);
    cache.deleteWhere((v) => v === 'org_a');
    expect([cache.get(1), cache.get(2), cache.get(3)]).toEqual([undefined, 'org_b', undefined]);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('refuses a capacity below one', () => {
    expect(() => new BoundedCache(0)).toThrow(RangeError);
  });
});
