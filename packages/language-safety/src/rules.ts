/**
 * The tiers: `general` for strings a student or a teacher sees, `parent` for strings a parent sees. The parent
 * tier applies every general rule and its own stricter ones (digits, percent signs, internal tokens).
 */
export const LANGUAGE_SAFETY_TIERS = ['general', 'parent'] as const;
export type LanguageSafetyTier = (typeof LANGUAGE_SAFETY_TIERS)[number];

/**
 * `word`: a deficit or labeling word or phrase; `comparison`: a comparison with other children (or a rank);
 * `pattern`: a raw regular expression (digits, percent signs, internal tokens).
 */
export const LANGUAGE_SAFETY_RULE_KINDS = ['word', 'comparison', 'pattern'] as const;
export type LanguageSafetyRuleKind = (typeof LANGUAGE_SAFETY_RULE_KINDS)[number];

/** One row of `language_safety_rules` (migrations/0008_language_safety.sql). */
export interface LanguageSafetyRule {
  /** `LS-<GROUP>-<NNN>`, e.g. `LS-DEF-012`; stable across rule-set versions. */
  readonly ruleId: string;
  /** The tier that introduces the rule: a `general` rule applies in both tiers, a `parent` rule only there. */
  readonly tier: LanguageSafetyTier;
  readonly kind: LanguageSafetyRuleKind;
  /** Normalized literal text (words and comparisons); exactly one of `matchText` and `matchRegex` is set. */
  readonly matchText: string | null;
  /** Regular-expression source (always for patterns; for comparisons that name a set of peers). */
  readonly matchRegex: string | null;
  /** Pattern rules only: match the text with Latin case kept (e.g. all-capital tokens). */
  readonly caseSensitive: boolean;
  /** The growth-language rewrite; null removes the match. */
  readonly replacement: string | null;
  /** A sentence on which this rule, and only this rule, fires (the integration tests run every one). */
  readonly example: string;
  /** What the rule catches, in English, for authors and reviewers. */
  readonly gloss: string;
}

/** The parent tier is the general tier plus the stricter parent rules. */
export const ruleApplies = (rule: Pick<LanguageSafetyRule, 'tier'>, tier: LanguageSafetyTier): boolean =>
  rule.tier === 'general' || tier === 'parent';

export const isLanguageSafetyTier = (value: unknown): value is LanguageSafetyTier =>
  typeof value === 'string' && (LANGUAGE_SAFETY_TIERS as readonly string[]).includes(value);
