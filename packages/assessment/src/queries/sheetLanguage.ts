import type { Sql } from '@qiraa/db';
import { unprocessable } from '@qiraa/http-kit';
import { loadLanguageSafety } from '@qiraa/language-safety';

/**
 * Every string a child will see passes the general tier of the language filter, or no sheet is made: 422
 * `language_safety_blocked`, with the fields that failed (their names, never the text). The content was
 * checked when it was stored, but the rule set may have grown since. No rule set: 503 (the error mapper).
 */
export async function assertSheetLanguage(pool: Sql, texts: Readonly<Record<string, string>>): Promise<void> {
  const filter = await loadLanguageSafety(pool);
  const blocked = Object.entries(texts).filter(([, text]) => filter.check(text, 'general').kind !== 'pass');
  if (blocked.length > 0) {
    throw unprocessable(
      'language_safety_blocked',
      'the sheet holds text the language-safety filter refuses; no sheet was made',
      blocked.map(([field]) => ({ field, issue: 'refused by the language-safety filter (general tier)' })),
    );
  }
}

/** Passes the general tier (the optional name on a reading sheet is left out when it does not). */
export async function passesSheetLanguage(pool: Sql, text: string): Promise<boolean> {
  return (await loadLanguageSafety(pool)).check(text, 'general').kind === 'pass';
}
