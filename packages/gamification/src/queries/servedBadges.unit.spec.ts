import { createLanguageSafetyFilter, type LanguageSafetyRule } from '@qiraa/language-safety';
import { describe, expect, it } from 'vitest';
import { servedBadges } from './servedBadges';

const rule = (ruleId: string, tier: LanguageSafetyRule['tier'], word: string, replacement: string) => ({
  ruleId,
  tier,
  kind: 'word' as const,
  matchText: word,
  matchRegex: null,
  caseSensitive: false,
  replacement,
  example: word,
  gloss: 'test',
});
const filter = createLanguageSafetyFilter(7, [
  rule('LS-DEF-001', 'general', 'ضعيف', 'في طور التعلم'),
  rule('LS-PAR-001', 'parent', 'مثابر', 'مجتهد'),
]);

const badges = [
  { code: 'a', nameAr: 'قارئ ضعيف', descriptionAr: 'قراءتك تتحسّن.', awardedAt: '2026-11-02T08:00:00.000Z' },
  { code: 'b', nameAr: 'قارئ مثابر', descriptionAr: 'قراءتك تتحسّن.', awardedAt: '2026-11-03T08:00:00.000Z' },
];

describe('badge texts as served', () => {
  it('rewrites a refused name or description, keeps every other field, and names what changed', () => {
    const served = servedBadges(badges, filter);
    expect(served.value).toEqual([{ ...badges[0], nameAr: 'قارئ في طور التعلم' }, badges[1]]);
    expect(served.rewritten).toEqual(['/badges/0/nameAr']);
    expect(badges[0]!.nameAr).toBe('قارئ ضعيف');
  });

  it('a parent reads the parent tier: its own rules and the general ones', () => {
    const served = servedBadges(badges, filter, 'parent');
    expect(served.value.map((b) => b.nameAr)).toEqual(['قارئ في طور التعلم', 'قارئ مجتهد']);
    expect(served.rewritten).toEqual(['/badges/0/nameAr', '/badges/1/nameAr']);
  });

  it('texts that pass come back as they are', () => {
    expect(servedBadges([badges[1]!], filter)).toEqual({ value: [badges[1]], rewritten: [] });
  });
});
