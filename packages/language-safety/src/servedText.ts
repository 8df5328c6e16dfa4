import type { LanguageSafetyFilter, LanguageSafetyResult } from './createLanguageSafetyFilter';
import type { LanguageSafetyTier } from './rules';

/** Texts remembered per rule-set version: the content bank and its hints are a few thousand strings. */
export const SERVED_TEXT_CACHE_SIZE = 20_000;

// One memo, of the filter in force: a newer rule set is a new filter and starts a fresh one, so stored text meets
// the newest rules. Keyed by the filter itself, not its version number: two databases (or test files sharing a
// process) may hold different rules under one number.
let memo: { filter: LanguageSafetyFilter; results: Map<string, LanguageSafetyResult> } | null = null;

/**
 * The filter's verdict on a string served to a student now, remembered by rule-set version (a served item is
 * checked once per version and process, not once per request). The verdict is the filter's own: deterministic
 * for a version, so remembering it changes nothing but the time.
 */
export function checkServed(
  filter: LanguageSafetyFilter,
  text: string,
  tier: LanguageSafetyTier = 'general',
): LanguageSafetyResult {
  if (memo === null || memo.filter !== filter) memo = { filter, results: new Map() };
  const key = `${tier}\u0000${text}`;
  const known = memo.results.get(key);
  if (known) return known;
  const result = filter.check(text, tier);
  if (memo.results.size >= SERVED_TEXT_CACHE_SIZE) memo.results.clear();
  memo.results.set(key, result);
  return result;
}

/** The text as served: itself when it passes, the filter's rewrite otherwise (a parent's text: the parent tier). */
export const servedRewrite = (
  filter: LanguageSafetyFilter,
  text: string,
  tier: LanguageSafetyTier = 'general',
): string => {
  const result = checkServed(filter, text, tier);
  return result.kind === 'pass' ? text : result.rewritten;
};

/** The text when it passes the rules in force, else `fallback` (a text of ours, tested to pass). */
export const servedOr = <F>(filter: LanguageSafetyFilter, text: string, fallback: F): string | F =>
  checkServed(filter, text).kind === 'pass' ? text : fallback;
