import { describe, expect, it } from 'vitest';
import { contentHash } from './hash';

describe('contentHash', () => {
  it('ignores key order and undefined keys at every depth', () => {
    const a = { stem: 'بيت', options: [{ key: 'a', text: 'بيت' }], meta: { x: 1, y: 2 }, gone: undefined };
    const b = { meta: { y: 2, x: 1 }, options: [{ text: 'بيت', key: 'a' }], stem: 'بيت' };
    expect(contentHash(a)).toBe(contentHash(b));
  });

  it('changes with any value, and with array order', () => {
    const base = { words: ['بَيْت', 'قَلَم'], grade: 1 };
    expect(contentHash(base)).not.toBe(contentHash({ ...base, grade: 2 }));
    expect(contentHash(base)).not.toBe(contentHash({ ...base, words: ['قَلَم', 'بَيْت'] }));
  });
});
