import { ApiError } from '@qiraa/http-kit';
import type { LanguageSafetyUnavailableError } from './errors';

export const LANGUAGE_SAFETY_UNAVAILABLE = 'LANGUAGE_SAFETY_UNAVAILABLE';

/**
 * The envelope a route answers when the rule set is unavailable: 503 `LANGUAGE_SAFETY_UNAVAILABLE`. The reason
 * (missing tables, database down, ...) stays in the server log; the caller only learns to try again later.
 */
export function languageSafetyUnavailableApiError(_error?: LanguageSafetyUnavailableError): ApiError {
  return new ApiError(
    503,
    LANGUAGE_SAFETY_UNAVAILABLE,
    'the language-safety rule set is unavailable; nothing can be shown unfiltered, try again later',
  );
}
