import type { AnySql } from '@qiraa/db';
import {
  type LanguageSafetyFilter,
  LanguageSafetyUnavailableError,
  languageSafetyUnavailableApiError,
  loadLanguageSafety,
} from '@qiraa/language-safety';

/**
 * The language-safety filter for content writes. Without a rule set nothing may be stored unchecked: 503
 * LANGUAGE_SAFETY_UNAVAILABLE (the error mapper does not know the filter's own error, so it is turned here).
 */
export async function contentFilter(sql: AnySql): Promise<LanguageSafetyFilter> {
  try {
    return await loadLanguageSafety(sql);
  } catch (error) {
    if (error instanceof LanguageSafetyUnavailableError) throw languageSafetyUnavailableApiError(error);
    throw error;
  }
}

/** Every student-facing string passes the general tier (a rewrite counts as blocked: content is refused). */
export const allPass = (filter: LanguageSafetyFilter, texts: readonly (string | null | undefined)[]) =>
  texts.every((text) => text == null || filter.check(text, 'general').kind === 'pass');
