import { ApiError, type ApiErrorBody } from '@qiraa/http-kit';
import type { WordListCheck, WordListReject } from './validateWordList';

/**
 * 422 VALIDATION_ERROR for a refused list: the ApiError envelope (reason = the reject reason) plus the
 * validate route's shape (`ok: false`, `reject`, `warnings`), so the builder shows one answer either way.
 */
export class WordListRejectedError extends ApiError {
  readonly check: WordListCheck & { reject: WordListReject };

  constructor(check: WordListCheck & { reject: WordListReject }) {
    super(422, 'VALIDATION_ERROR', 'the word list was refused; see reject', {
      reason: check.reject.reason,
      details: check.reject.details,
    });
    this.check = check;
  }

  override toBody(): ApiErrorBody & Omit<WordListCheck, 'ok'> & { ok: false } {
    return { ...super.toBody(), ok: false, reject: this.check.reject, warnings: this.check.warnings };
  }
}

/** Throws the 422 when the check refused the list. */
export function assertAccepted(check: WordListCheck): void {
  if (check.reject) throw new WordListRejectedError({ ...check, reject: check.reject });
}

const UNIQUE_VIOLATION = '23505';
const ONE_LIVE_INDEX = 'content_word_lists_one_live_idx';

/** A unique violation of the "one operational version per externalId" index. */
export const isSecondLiveVersion = (error: unknown): boolean =>
  (error as { code?: string }).code === UNIQUE_VIOLATION &&
  (error as { constraint_name?: string }).constraint_name === ONE_LIVE_INDEX;

/** Any other unique violation: a version number or externalId taken by a concurrent writer. */
export const isTakenVersion = (error: unknown): boolean =>
  (error as { code?: string }).code === UNIQUE_VIOLATION && !isSecondLiveVersion(error);
