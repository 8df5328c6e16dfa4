import { LanguageSafetyUnavailableError } from './errors';
import { normalizeArabic } from './normalize';
import type { LanguageSafetyRule } from './rules';

/** A word character: letters (Arabic letters included), marks, digits and `_`. Matches end at non-word ones. */
export const WORD_CHAR = '[\\p{L}\\p{M}\\p{N}_]';

/**
 * Attached prefixes an Arabic word may carry: a conjunction (و ف), then a preposition (ب ك ل) and/or the
 * article ال, where ل + ال is written لل. The conjunction is kept in a rewrite; the rest is replaced.
 */
const PREFIXES = '(?<pre>(?<conj>[وف])?(?:[بك]?ال|لل|[بلك])?)';
/** The same for a literal that already starts with the article: (و|ف)? then ب or ك before ال, or لل. */
const PREFIXES_BEFORE_ARTICLE = '(?<pre>(?<conj>[وف])?(?:[بك]?ال|لل))';
const ARABIC_LETTER = /[\u0621-\u064a]/;

export interface CompiledRule {
  readonly rule: LanguageSafetyRule;
  readonly regex: RegExp;
  /** Priority among matches of equal span: position of the rule in the set (sorted by rule id). */
  readonly order: number;
  /**
   * Text every match contains verbatim (the longest word of a literal), or null for regex rules. A text
   * without it cannot match, so the filter skips the regex: the lookbehind-led regexes cost a scan each.
   */
  readonly needle: string | null;
}

/** The longest word of a normalized literal, without the article its regex lets a prefix stand in for. */
function needleOf(text: string): string {
  const words = text.split(/\s+/);
  if (text.startsWith('ال')) words[0] = words[0]!.slice(2);
  return words.reduce((a, b) => (b.length > a.length ? b : a), '');
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * A literal as a regex: spaces match any run of whitespace. An Arabic literal may carry the attached prefixes
 * and, after a final consonant, the accusative tanween alef (ضعيفاً is folded to ضعيفا).
 */
function literalSource(text: string): string {
  const words = text.trim().split(/\s+/).map(escapeRegex).join('\\s+');
  const first = text[0] ?? '';
  const last = text[text.length - 1] ?? '';
  if (!ARABIC_LETTER.test(first)) return words;
  const tanween = ARABIC_LETTER.test(last) && last !== 'ا' && last !== 'ه' ? 'ا?' : '';
  if (text.startsWith('ال')) return `${PREFIXES_BEFORE_ARTICLE}${words.slice(2)}${tanween}`;
  return `${PREFIXES}${words}${tanween}`;
}

/**
 * Compiles one rule. Words and comparisons are wrapped: attached prefixes and word boundaries on both sides.
 * Patterns are used as written (flags `gu`), on the folded text or, when case-sensitive, the cased text.
 */
export function compileRule(rule: LanguageSafetyRule, order: number): CompiledRule {
  let source: string;
  let needle: string | null = null;
  if (rule.kind === 'pattern') {
    if (rule.matchRegex === null) throw invalid(rule, 'a pattern rule needs a regex');
    source = rule.matchRegex;
  } else if (rule.matchText !== null) {
    const text = normalizeArabic(rule.matchText).trim();
    if (text.length === 0) throw invalid(rule, 'empty match text');
    source = `(?<!${WORD_CHAR})${literalSource(text)}(?!${WORD_CHAR})`;
    needle = needleOf(text) || null;
  } else if (rule.matchRegex !== null) {
    source = `(?<!${WORD_CHAR})${PREFIXES}(?:${rule.matchRegex})(?!${WORD_CHAR})`;
  } else {
    throw invalid(rule, 'neither match text nor regex');
  }
  let regex: RegExp;
  try {
    regex = new RegExp(source, 'gu');
  } catch (error) {
    throw invalid(rule, (error as Error).message, error);
  }
  if (new RegExp(source, 'u').test('')) throw invalid(rule, 'matches the empty string');
  return { rule, regex, order, needle };
}

function invalid(rule: LanguageSafetyRule, why: string, cause?: unknown): LanguageSafetyUnavailableError {
  return new LanguageSafetyUnavailableError('rule_invalid', `language-safety rule ${rule.ruleId} is invalid: ${why}`, {
    cause,
  });
}
