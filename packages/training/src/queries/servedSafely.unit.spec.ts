import { createLanguageSafetyFilter } from '@qiraa/language-safety';
import { describe, expect, it } from 'vitest';
import { GENERIC_EXPLANATION_AR, GENERIC_HINT_AR } from './answerFeedback';
import { safeFeedback, safeServed } from './servedSafely';

const filter = createLanguageSafetyFilter(7, [
  {
    ruleId: 'LS-DEF-001',
    tier: 'general',
    kind: 'word',
    matchText: 'ضعيف',
    matchRegex: null,
    caseSensitive: false,
    replacement: 'في طور التعلم',
    example: 'ضعيف',
    gloss: 'weak',
  },
]);

const served = {
  item: {
    id: 'i1',
    version: 1,
    stemAr: 'من ضعيف في القصة؟',
    options: [
      { key: 'a', textAr: 'ضعيف' },
      { key: 'b', textAr: 'قوي' },
    ],
    passageId: null,
  },
  step: { kind: 'bridge' as const, startsBridge: true, strategyPromptAr: 'أنت ضعيف' },
  attempt: 1 as const,
  hintAr: 'ضعيف هنا',
};

describe('served text of the practice queue', () => {
  it('rewrites a refused stem and option, keeps the option keys, and leaves a refused hint or prompt out', () => {
    expect(safeServed(served, filter)).toEqual({
      ...served,
      item: {
        ...served.item,
        stemAr: 'من في طور التعلم في القصة؟',
        options: [
          { key: 'a', textAr: 'في طور التعلم' },
          { key: 'b', textAr: 'قوي' },
        ],
      },
      step: { ...served.step, strategyPromptAr: null },
      hintAr: null,
    });
  });

  it('passes clean text through untouched', () => {
    const clean = { ...served, step: { ...served.step, strategyPromptAr: 'نقرأ معًا' }, hintAr: 'انظر إلى أول حرف' };
    const item = { ...clean.item, stemAr: 'من في القصة؟', options: [{ key: 'b', textAr: 'قوي' }] };
    expect(safeServed({ ...clean, item }, filter)).toEqual({ ...clean, item });
    expect(safeServed(null, filter)).toBeNull();
  });

  it('replaces a refused hint or explanation by the generic one', () => {
    expect(safeFeedback({ hint: { kind: 'item', textAr: 'ضعيف' }, explanation: null }, filter)).toEqual({
      hint: { kind: 'generic', textAr: GENERIC_HINT_AR },
      explanation: null,
    });
    expect(safeFeedback({ hint: null, explanation: { textAr: 'ضعيف' } }, filter)).toEqual({
      hint: null,
      explanation: { textAr: GENERIC_EXPLANATION_AR },
    });
    const fine = { hint: { kind: 'light_hint' as const, textAr: 'نقرأ ببطء' }, explanation: null };
    expect(safeFeedback(fine, filter)).toEqual(fine);
  });
});
