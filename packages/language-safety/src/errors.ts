import type { ApiError, MapsToApiError } from '@qiraa/http-kit';
import { languageSafetyUnavailableApiError } from './apiError';
import type { LanguageSafetyTier } from './rules';

/** A rule that fired: its id and the text it matched, as written in the checked string. */
export interface FiredRule {
  readonly ruleId: string;
  readonly match: string;
}

/** Why the rule set could not be loaded; logged, never shown to a caller. */
export type LanguageSafetyUnavailableReason =
  | 'rule_tables_missing'
  | 'no_rule_set'
  | 'rule_set_empty'
  | 'rule_invalid'
  | 'database_error';

/**
 * The rule set cannot be loaded (tables missing, no published version, an empty or invalid version, the
 * database down). Nothing may be shown unfiltered: parent routes answer 503 `LANGUAGE_SAFETY_UNAVAILABLE`
 * (see `languageSafetyUnavailableApiError`).
 */
export class LanguageSafetyUnavailableError extends Error implements MapsToApiError {
  readonly code = 'LANGUAGE_SAFETY_UNAVAILABLE';

  constructor(
    readonly reason: LanguageSafetyUnavailableReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LanguageSafetyUnavailableError';
  }

  /** Thrown through a route, it answers 503 `LANGUAGE_SAFETY_UNAVAILABLE` (the error mapper asks for this). */
  toApiError(): ApiError {
    return languageSafetyUnavailableApiError(this);
  }
}

/**
 * A string the filter would rewrite, raised for callers that must refuse instead of rewriting (for example
 * notification dispatch, which stores nothing when a rendered string does not pass).
 */
export class LanguageSafetyBlockedError extends Error {
  readonly code = 'LANGUAGE_SAFETY_BLOCKED';

  constructor(
    readonly tier: LanguageSafetyTier,
    readonly fired: readonly FiredRule[],
    readonly rewritten: string,
  ) {
    super(
      `text does not pass the ${tier} language-safety tier: ${[...new Set(fired.map((f) => f.ruleId))].join(', ')}`,
    );
    this.name = 'LanguageSafetyBlockedError';
  }
}
