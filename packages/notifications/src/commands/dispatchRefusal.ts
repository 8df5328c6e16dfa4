import { ApiError } from '@qiraa/http-kit';
import { LanguageSafetyBlockedError } from '@qiraa/language-safety';

/**
 * A dispatch refusal no retry can change: the catalog or the payload refused (422), or the rendered text failed
 * the language-safety filter. A reaction parks such an event at once instead of retrying it; anything else (a
 * database error, the rule set unavailable) is retried with backoff first.
 */
export function isDispatchRefusal(error: unknown): boolean {
  return (error instanceof ApiError && error.status === 422) || error instanceof LanguageSafetyBlockedError;
}
