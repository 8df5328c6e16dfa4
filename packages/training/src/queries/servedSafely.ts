import { servedStudentItem } from '@qiraa/content';
import { type LanguageSafetyFilter, servedOr } from '@qiraa/language-safety';
import { GENERIC_EXPLANATION_AR, GENERIC_HINT_AR, type HintKind } from './answerFeedback';
import type { servedOf } from './practiceView';

/**
 * Every text of the practice queue passes the language-safety rule set in force when served, not only when it was
 * written, so a stricter version reaches stored content (docs/language-safety.md, "Served text"):
 * - the item's stem and options: the filter's rewrite (the option keys stay, the answer is scored as stored);
 * - the item's hint, a support step's introduction prompt: left out (null) when refused; the child still gets the
 *   hint ladder's next rung on a wrong try;
 * - a hint or an explanation given after an answer: the generic one when refused (ours, tested to pass).
 */
export function safeServed(
  served: Awaited<ReturnType<typeof servedOf>>,
  filter: LanguageSafetyFilter,
): Awaited<ReturnType<typeof servedOf>> {
  if (!served) return served;
  const prompt = served.step.strategyPromptAr;
  return {
    ...served,
    item: servedStudentItem(served.item, filter).item,
    step: { ...served.step, strategyPromptAr: prompt === null ? null : servedOr(filter, prompt, null) },
    hintAr: served.hintAr === null ? null : servedOr(filter, served.hintAr, null),
  };
}

export function safeFeedback(
  feedback: {
    hint: { kind: HintKind; textAr: string } | null;
    explanation: { textAr: string } | null;
  },
  filter: LanguageSafetyFilter,
) {
  const { hint, explanation } = feedback;
  return {
    hint:
      hint === null
        ? null
        : servedOr(filter, hint.textAr, null) === null
          ? { kind: 'generic' as const, textAr: GENERIC_HINT_AR }
          : hint,
    explanation: explanation === null ? null : { textAr: servedOr(filter, explanation.textAr, GENERIC_EXPLANATION_AR) },
  };
}
