import type { WindowCode } from '../queries/catalogTypes';

export const WORD_LIST_STATUSES = ['draft', 'operational', 'retired'] as const;
export type WordListStatus = (typeof WORD_LIST_STATUSES)[number];
export const WORD_LIST_SCOPES = ['global', 'organization', 'school'] as const;
export type WordListScope = (typeof WORD_LIST_SCOPES)[number];

/** Spec Limits "word-list time": a timed list without a duration of its own runs 60 seconds. */
export const DEFAULT_DURATION_SECONDS = 60;
/** Spec Limits "words per row default": the sheet prints 5 words a row when the list names none. */
export const DEFAULT_WORDS_PER_ROW = 5;
export const DURATION_SECONDS = { min: 10, max: 600 } as const;
export const WORDS_PER_ROW = { min: 1, max: 10 } as const;

/**
 * Why a list is refused, checked in this order (the first that applies is the answer). Closed list: the
 * builder and docs/word-lists.md name exactly these.
 */
export const WORD_LIST_REJECT_REASONS = [
  'no_word_list_cell',
  'untimed_with_duration',
  'duration_out_of_range',
  'words_per_row_out_of_range',
  'not_arabic_word',
  'duplicate_words',
  'too_few_words',
  'too_many_words',
  'language_safety_blocked',
] as const;
export type WordListRejectReason = (typeof WORD_LIST_REJECT_REASONS)[number];

/** What a list may be stored with but the author should look at. Closed list. */
export const WORD_LIST_WARNING_CODES = [
  'cell_has_operational_list',
  'untimed_list',
  'no_reading_note',
  'words_without_diacritics',
] as const;
export type WordListWarningCode = (typeof WORD_LIST_WARNING_CODES)[number];

/** Grades whose readers still need harakat on every word (warning words_without_diacritics). */
export const DIACRITICS_EXPECTED_UP_TO_GRADE = 2;

/** The author's content of one version: what a version differs in, and what its content hash covers. */
export interface WordListContent {
  grade: number;
  skillId: string;
  /** null: the list serves every window (an all-window list). */
  window: WindowCode | null;
  words: string[];
  timed: boolean;
  durationSeconds: number | null;
  /** null: the list names none (the sheet uses DEFAULT_WORDS_PER_ROW). */
  wordsPerRow: number | null;
  readingNoteAr: string | null;
}
