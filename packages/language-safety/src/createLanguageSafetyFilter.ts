import { type CompiledRule, compileRule } from './compileRule';
import { type FiredRule, LanguageSafetyBlockedError, LanguageSafetyUnavailableError } from './errors';
import { normalizeWithMap } from './normalize';
import { isLanguageSafetyTier, type LanguageSafetyRule, type LanguageSafetyTier, ruleApplies } from './rules';

export type LanguageSafetyResult =
  | { readonly kind: 'pass' }
  | { readonly kind: 'rewrite'; readonly rewritten: string; readonly fired: readonly FiredRule[] };

export interface LanguageSafetyFilter {
  /** The rule-set version the filter applies. */
  readonly version: number;
  /** Its rules, sorted by rule id. */
  readonly rules: readonly LanguageSafetyRule[];
  /** Pass, or the rewrite the filter would make and every rule that fired, in text order. Deterministic. */
  check(text: string, tier: LanguageSafetyTier): LanguageSafetyResult;
  /** The text itself when it passes; otherwise throws `LanguageSafetyBlockedError` (refuse, do not rewrite). */
  assertSafe(text: string, tier: LanguageSafetyTier): string;
}

interface Candidate {
  readonly start: number;
  readonly end: number;
  /** Length of the attached prefixes (و ب ال ...) inside the match: a rule that spells more of it wins a tie. */
  readonly prefixLength: number;
  readonly conj: string;
  readonly compiled: CompiledRule;
}

/** Punctuation a removed match must not leave a space before. */
const CLOSING = /^[.,;:!?،؛؟)\]}»]/;
const SPACE = /\s/;

/**
 * Builds the filter from a rule list (the database loader calls this; unit tests call it with rules in memory).
 * Throws `LanguageSafetyUnavailableError` for an empty list, a duplicate rule id or a rule that does not compile.
 */
export function createLanguageSafetyFilter(
  version: number,
  rules: readonly LanguageSafetyRule[],
): LanguageSafetyFilter {
  if (rules.length === 0) {
    throw new LanguageSafetyUnavailableError('rule_set_empty', `language-safety rule set ${version} has no rules`);
  }
  const sorted = [...rules].sort((a, b) => (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0));
  for (const [i, rule] of sorted.entries()) {
    if (i > 0 && sorted[i - 1]!.ruleId === rule.ruleId) {
      throw new LanguageSafetyUnavailableError('rule_invalid', `language-safety rule ${rule.ruleId} appears twice`);
    }
  }
  const compiled = sorted.map((rule, i) => compileRule(rule, i));
  const byTier: Readonly<Record<LanguageSafetyTier, readonly CompiledRule[]>> = {
    general: compiled.filter((c) => ruleApplies(c.rule, 'general')),
    parent: compiled.filter((c) => ruleApplies(c.rule, 'parent')),
  };

  function check(text: string, tier: LanguageSafetyTier): LanguageSafetyResult {
    if (typeof text !== 'string') throw new TypeError('language-safety check needs a string');
    if (!isLanguageSafetyTier(tier)) throw new TypeError(`unknown language-safety tier "${String(tier)}"`);
    const normalized = normalizeWithMap(text);
    const candidates: Candidate[] = [];
    for (const c of byTier[tier]) {
      const haystack = c.rule.caseSensitive ? normalized.cased : normalized.folded;
      if (c.needle !== null && !haystack.includes(c.needle)) continue;
      for (const m of haystack.matchAll(c.regex)) {
        if (m[0].length === 0) continue;
        candidates.push({
          start: m.index,
          end: m.index + m[0].length,
          prefixLength: m.groups?.['pre']?.length ?? 0,
          conj: m.groups?.['conj'] ?? '',
          compiled: c,
        });
      }
    }
    if (candidates.length === 0) return { kind: 'pass' };

    // Overlaps: the earliest match wins, then the longest, then the one with the shorter attached prefix
    // (the rule spelling more of the text), then the rule id. The result never depends on rule order in the DB.
    candidates.sort(
      (a, b) =>
        a.start - b.start || b.end - a.end || a.prefixLength - b.prefixLength || a.compiled.order - b.compiled.order,
    );
    const selected: Candidate[] = [];
    let reached = 0;
    for (const c of candidates) {
      if (c.start < reached) continue;
      selected.push(c);
      reached = c.end;
    }

    const { map } = normalized;
    const originalIndex = (i: number) => (i < map.length ? map[i]! : text.length);
    const fired: FiredRule[] = [];
    let out = '';
    let pos = 0;
    for (const [i, c] of selected.entries()) {
      const start = originalIndex(c.start);
      // Up to the next kept character: diacritics and tatweel after the last letter belong to the match.
      let end = originalIndex(c.end);
      fired.push({ ruleId: c.compiled.rule.ruleId, match: text.slice(start, end) });
      out += text.slice(pos, start);
      const replacement = c.compiled.rule.replacement;
      if (replacement === null) {
        // A removal leaves neither a double space nor a space before punctuation.
        const next = selected[i + 1];
        const limit = next ? originalIndex(next.start) : text.length;
        if (out.length === 0 || SPACE.test(out[out.length - 1]!)) {
          while (end < limit && SPACE.test(text[end]!)) end++;
        }
        if (end >= text.length || CLOSING.test(text.slice(end))) out = out.replace(/\s+$/u, '');
      } else {
        out += c.conj + replacement;
      }
      pos = end;
    }
    out += text.slice(pos);
    return { kind: 'rewrite', rewritten: out, fired };
  }

  return {
    version,
    rules: sorted,
    check,
    assertSafe(text, tier) {
      const result = check(text, tier);
      if (result.kind === 'pass') return text;
      throw new LanguageSafetyBlockedError(tier, result.fired, result.rewritten);
    },
  };
}
