import type { LanguageSafetyFilter } from '@qiraa/language-safety';

/** Every student-facing string passes the general tier (a rewrite counts as blocked: content is refused). */
export const allPass = (filter: LanguageSafetyFilter, texts: readonly (string | null | undefined)[]) =>
  texts.every((text) => text == null || filter.check(text, 'general').kind === 'pass');
