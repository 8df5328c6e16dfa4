export { LANGUAGE_SAFETY_UNAVAILABLE, languageSafetyUnavailableApiError } from './apiError';
export {
  createLanguageSafetyFilter,
  type LanguageSafetyFilter,
  type LanguageSafetyResult,
} from './createLanguageSafetyFilter';
export {
  type FiredRule,
  LanguageSafetyBlockedError,
  LanguageSafetyUnavailableError,
  type LanguageSafetyUnavailableReason,
} from './errors';
export {
  LANGUAGE_SAFETY_CACHE_TTL_MS,
  type LoadLanguageSafetyOptions,
  loadLanguageSafety,
  reloadLanguageSafety,
} from './loadLanguageSafety';
export { type NormalizedText, normalizeArabic, normalizeWithMap } from './normalize';
export {
  isLanguageSafetyTier,
  LANGUAGE_SAFETY_RULE_KINDS,
  LANGUAGE_SAFETY_TIERS,
  type LanguageSafetyRule,
  type LanguageSafetyRuleKind,
  type LanguageSafetyTier,
  ruleApplies,
} from './rules';
export { checkServed, SERVED_TEXT_CACHE_SIZE, servedOr, servedRewrite } from './servedText';
