import type { Catalog } from '../queries/catalogTypes';
import type { WordListContent, WordListRejectReason } from '../rules/wordListRules';
import type { WordListRow } from '../schemas/importBody';
import type { RejectReason } from './rejectReasons';
import { validateWordList } from './validateWordList';

/** The builder's reasons as import reasons: the two count bounds are one import reason (spec wording). */
const AS_IMPORT_REASON: Readonly<Record<WordListRejectReason, RejectReason>> = {
  no_word_list_cell: 'no_word_list_cell',
  untimed_with_duration: 'untimed_with_duration',
  duration_out_of_range: 'duration_out_of_range',
  words_per_row_out_of_range: 'words_per_row_out_of_range',
  not_arabic_word: 'not_arabic_word',
  duplicate_words: 'duplicate_words',
  too_few_words: 'word_count_out_of_range',
  too_many_words: 'word_count_out_of_range',
  language_safety_blocked: 'language_safety_blocked',
};

/** A list row's content as the builder stores it: timed lists default to 60 seconds (spec: Limits). */
export const wordListContentOf = (row: WordListRow): WordListContent => {
  const timed = row.timing?.timed ?? true;
  return {
    grade: row.grade,
    skillId: row.skill_id,
    window: row.window ?? null,
    words: row.words,
    timed,
    durationSeconds: row.timing?.durationSeconds ?? (timed ? 60 : null),
    wordsPerRow: row.words_per_row ?? null,
    readingNoteAr: row.reading_note_ar ?? null,
  };
};

/**
 * A word-list row through the word-list builder's own checks (so an imported list obeys exactly the rules a
 * built one does): skill, cell, timing, Arabic words, duplicates, word count, language safety.
 */
export function wordListRowReason(
  content: WordListContent,
  catalog: Catalog,
  passesLanguageSafety: (text: string) => boolean,
): RejectReason | null {
  if (!catalog.skillById.has(content.skillId)) return 'unknown_skill';
  const check = validateWordList(content, {
    cells: catalog.wordListCells,
    passesLanguageSafety,
    sharesCellWhenOperational: false,
  });
  return check.reject ? AS_IMPORT_REASON[check.reject.reason] : null;
}
