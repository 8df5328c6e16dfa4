import { describe, expect, it } from 'vitest';
import { languageSafetyUnavailableApiError } from './apiError';
import { createLanguageSafetyFilter } from './createLanguageSafetyFilter';
import { LanguageSafetyBlockedError, LanguageSafetyUnavailableError } from './errors';
import type { LanguageSafetyRule } from './rules';

const rule = (ruleId: string, fields: Partial<LanguageSafetyRule>): LanguageSafetyRule => ({
  ruleId,
  tier: 'general',
  kind: 'word',
  matchText: null,
  matchRegex: null,
  caseSensitive: false,
  replacement: null,
  example: '-',
  gloss: '-',
  ...fields,
});

const RULES: LanguageSafetyRule[] = [
  rule('LS-DEF-001', { matchText: 'ضعيف', replacement: 'في طور التعلّم' }),
  rule('LS-DEF-002', { matchText: 'بطء', replacement: 'تأنٍّ' }),
  rule('LS-DEF-003', { matchText: 'ببطء', replacement: 'بتأنٍّ' }),
  rule('LS-DEF-004', { matchText: 'التاخر الدراسي', replacement: 'الحاجة إلى دعم' }),
  rule('LS-DEF-005', { matchText: 'لا يستطيع', replacement: 'يتعلّم' }),
  rule('LS-DEF-006', { matchText: 'ضعف', replacement: 'حاجة إلى دعم' }),
  rule('LS-DEF-007', { matchText: 'نقاط الضعف', replacement: 'جوانب النمو' }),
  rule('LS-ENG-001', { matchText: 'weak', replacement: 'still developing' }),
  rule('LS-ENG-002', { matchText: "can't", replacement: 'is learning to' }),
  rule('LS-CMP-001', {
    kind: 'comparison',
    matchRegex: 'اقل\\s+من\\s+(?:ال)?(?:زملا[ءئؤ]|اقران)\\p{L}*',
    replacement: 'يتقدّم بوتيرته الخاصة',
  }),
  rule('LS-CMP-002', { kind: 'comparison', matchRegex: 'مقارنه\\s+ب(?:زملا[ءئؤ]|اقران)\\p{L}*' }),
  rule('LS-NUM-001', { tier: 'parent', kind: 'pattern', matchRegex: '[0-9]+' }),
  rule('LS-NUM-002', { tier: 'parent', kind: 'pattern', matchRegex: '[٠-٩]+' }),
  rule('LS-PCT-001', { tier: 'parent', kind: 'pattern', matchRegex: '[0-9٠-٩]+\\s?[%٪]' }),
  rule('LS-TOK-001', {
    tier: 'parent',
    kind: 'pattern',
    matchRegex: '(?<![\\p{L}\\p{N}_])[A-Z]{3,}(?![\\p{L}\\p{N}_])',
    caseSensitive: true,
  }),
];
const filter = createLanguageSafetyFilter(1, RULES);
const ids = (text: string, tier: 'general' | 'parent' = 'general') => {
  const result = filter.check(text, tier);
  return result.kind === 'pass' ? [] : result.fired.map((f) => f.ruleId);
};
const rewrite = (text: string, tier: 'general' | 'parent' = 'general') => {
  const result = filter.check(text, tier);
  return result.kind === 'pass' ? null : result.rewritten;
};

describe('matching', () => {
  it('passes a sentence no rule matches', () => {
    expect(filter.check('يتقدّم أحمد في القراءة كل يوم', 'general')).toEqual({ kind: 'pass' });
  });

  it.each([
    'ضعيف',
    'وضعيف',
    'فضعيف',
    'بضعيف',
    'لضعيف',
    'كضعيف',
    'الضعيف',
    'والضعيف',
    'بالضعيف',
    'كالضعيف',
    'للضعيف',
    'وللضعيف',
    'ضعيفاً',
  ])('matches a word with its attached prefixes and tanween alef: %s', (word) => {
    expect(ids(`الطالب ${word} في القراءة`)).toEqual(['LS-DEF-001']);
  });

  it('matches a rule that starts with the article after ب, و and as لل', () => {
    for (const form of ['التأخر الدراسي', 'بالتأخر الدراسي', 'وبالتأخر الدراسي', 'للتأخر الدراسي']) {
      expect(ids(`نتابع ${form} بعناية`), form).toEqual(['LS-DEF-004']);
    }
  });

  it('matches on word boundaries only', () => {
    expect(ids('تضعيف الحرف')).toEqual([]);
    expect(ids('ضعيفهم')).toEqual([]);
    expect(ids('مضاعف')).toEqual([]);
    expect(ids('weakly weakened tweak')).toEqual([]);
    expect(ids('weak.')).toEqual(['LS-ENG-001']);
  });

  it('matches through diacritics, tatweel, hamza forms, case and typographic apostrophes', () => {
    expect(ids('الطالبُ ضَعِيـــفٌ')).toEqual(['LS-DEF-001']);
    expect(ids('هو أقلُّ من زملائه')).toEqual(['LS-CMP-001']);
    expect(ids('He is WEAK')).toEqual(['LS-ENG-001']);
    expect(ids('He can’t read')).toEqual(['LS-ENG-002']);
  });

  it('matches a phrase across any run of whitespace', () => {
    expect(ids('لا   يستطيع القراءة')).toEqual(['LS-DEF-005']);
    expect(ids('لا\nيستطيع القراءة')).toEqual(['LS-DEF-005']);
  });

  it('wraps comparison regexes with prefixes and boundaries', () => {
    expect(ids('وأقل من أقرانه')).toEqual(['LS-CMP-001']);
    expect(ids('بالمقارنة بزملائه')).toEqual(['LS-CMP-002']);
    expect(ids('استعار أقلامًا من زملائه')).toEqual([]);
    expect(ids('تعلّم من زملائه')).toEqual([]);
    expect(ids('جيد مقارنةً بزملائه')).toEqual(['LS-CMP-002']);
    expect(ids('أقل من زملائهم')).toEqual(['LS-CMP-001']);
  });
});

describe('overlaps', () => {
  it('lets the earliest, then the longest match win', () => {
    expect(ids('هذه نقاط الضعف عنده')).toEqual(['LS-DEF-007']);
    expect(rewrite('هذه نقاط الضعف عنده')).toBe('هذه جوانب النمو عنده');
  });

  it('on an equal span prefers the rule that spells more of it (ببطء over ب + بطء)', () => {
    expect(ids('يقرأ ببطء')).toEqual(['LS-DEF-003']);
    expect(rewrite('يقرأ ببطء')).toBe('يقرأ بتأنٍّ');
    expect(ids('لاحظنا بطء القراءة')).toEqual(['LS-DEF-002']);
  });

  it('prefers the percentage to the digits inside it', () => {
    expect(ids('النسبة ٨٠٪ هذا الشهر', 'parent')).toEqual(['LS-PCT-001']);
  });

  it('reports every occurrence, in text order', () => {
    const result = filter.check('ضعيف و weak و ضعيف', 'general');
    expect(result).toEqual({
      kind: 'rewrite',
      rewritten: 'في طور التعلّم و still developing و في طور التعلّم',
      fired: [
        { ruleId: 'LS-DEF-001', match: 'ضعيف' },
        { ruleId: 'LS-ENG-001', match: 'weak' },
        { ruleId: 'LS-DEF-001', match: 'ضعيف' },
      ],
    });
  });
});

describe('rewriting', () => {
  it('rewrites in the original text: other diacritics stay, the match takes its own marks with it', () => {
    const result = filter.check('الطالبُ ضَعِيفٌ في القراءةِ', 'general');
    expect(result).toEqual({
      kind: 'rewrite',
      rewritten: 'الطالبُ في طور التعلّم في القراءةِ',
      fired: [{ ruleId: 'LS-DEF-001', match: 'ضَعِيفٌ' }],
    });
  });

  it('keeps an attached conjunction and drops the article and prepositions', () => {
    expect(rewrite('قارئ نشيط وضعيف')).toBe('قارئ نشيط وفي طور التعلّم');
    expect(rewrite('الطالب الضعيف')).toBe('الطالب في طور التعلّم');
  });

  it('removes a match without leaving a double space or a space before punctuation', () => {
    expect(rewrite('قرأ 45 كلمة', 'parent')).toBe('قرأ كلمة');
    expect(rewrite('قرأ 45 من 50 كلمة', 'parent')).toBe('قرأ من كلمة');
    expect(rewrite('45 كلمة', 'parent')).toBe('كلمة');
    expect(rewrite('عدد الكلمات 45', 'parent')).toBe('عدد الكلمات');
    expect(rewrite('قراءته جيدة مقارنةً بزملائه.')).toBe('قراءته جيدة.');
    expect(rewrite('قراءته جيدة مقارنةً بزملائه، ويتقدّم')).toBe('قراءته جيدة، ويتقدّم');
  });
});

describe('tiers', () => {
  it('applies parent rules only in the parent tier, and general rules in both', () => {
    expect(filter.check('قرأ 45 كلمة', 'general')).toEqual({ kind: 'pass' });
    expect(ids('قرأ 45 كلمة', 'parent')).toEqual(['LS-NUM-001']);
    expect(ids('الطالب ضعيف', 'parent')).toEqual(['LS-DEF-001']);
  });

  it('matches case-sensitive patterns on the text with Latin case kept', () => {
    expect(ids('الحالة SECURE الآن', 'parent')).toEqual(['LS-TOK-001']);
    expect(ids('الحالة secure الآن', 'parent')).toEqual([]);
  });

  it('refuses an unknown tier', () => {
    expect(() => filter.check('نص', 'teacher' as never)).toThrow(TypeError);
  });
});

describe('determinism', () => {
  it('answers the same for the same text whatever the order the rules were given in', () => {
    const reversed = createLanguageSafetyFilter(1, [...RULES].reverse());
    const shuffled = createLanguageSafetyFilter(
      1,
      [...RULES].sort((a, b) => a.gloss.length - b.gloss.length || (a.ruleId > b.ruleId ? -1 : 1)),
    );
    const texts = ['هو أقل من زملائه وضعيف في 3 مهارات ٨٠٪', 'يقرأ ببطء', 'weak SECURE ضعيفاً'];
    for (const text of texts) {
      for (const tier of ['general', 'parent'] as const) {
        const once = filter.check(text, tier);
        expect(filter.check(text, tier)).toEqual(once);
        expect(reversed.check(text, tier)).toEqual(once);
        expect(shuffled.check(text, tier)).toEqual(once);
      }
    }
  });
});

describe('refusing and failing', () => {
  it('assertSafe returns passing text and throws LanguageSafetyBlockedError with the fired rules otherwise', () => {
    expect(filter.assertSafe('أحسنت', 'parent')).toBe('أحسنت');
    try {
      filter.assertSafe('قرأ 45 كلمة وهو ضعيف', 'parent');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(LanguageSafetyBlockedError);
      const blocked = error as LanguageSafetyBlockedError;
      expect(blocked.code).toBe('LANGUAGE_SAFETY_BLOCKED');
      expect(blocked.tier).toBe('parent');
      expect(blocked.fired.map((f) => f.ruleId)).toEqual(['LS-NUM-001', 'LS-DEF-001']);
      expect(blocked.rewritten).toBe('قرأ كلمة وهو في طور التعلّم');
    }
  });

  it.each([
    ['an empty rule list', [], 'rule_set_empty'],
    ['a regex that does not compile', [rule('LS-TOK-009', { kind: 'pattern', matchRegex: '[a-' })], 'rule_invalid'],
    ['a regex matching the empty string', [rule('LS-TOK-009', { kind: 'pattern', matchRegex: 'x*' })], 'rule_invalid'],
    ['a pattern without a regex', [rule('LS-TOK-009', { kind: 'pattern', matchText: 'x' })], 'rule_invalid'],
    ['a duplicate rule id', [RULES[0]!, RULES[0]!], 'rule_invalid'],
  ] as const)('is unavailable for %s', (_what, rules, reason) => {
    try {
      createLanguageSafetyFilter(2, rules);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(LanguageSafetyUnavailableError);
      expect((error as LanguageSafetyUnavailableError).reason).toBe(reason);
    }
  });

  it('turns the unavailable error into the 503 ApiError envelope', () => {
    const apiError = languageSafetyUnavailableApiError(new LanguageSafetyUnavailableError('database_error', 'down'));
    expect(apiError.status).toBe(503);
    expect(apiError.toBody()).toEqual({
      code: 'LANGUAGE_SAFETY_UNAVAILABLE',
      message: expect.stringContaining('unavailable'),
    });
  });
});
