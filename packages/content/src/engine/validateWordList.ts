import type { ErrorDetail } from '@qiraa/http-kit';
import type { CatalogWordListCell } from '../queries/catalogTypes';
import {
  DIACRITICS_EXPECTED_UP_TO_GRADE,
  DURATION_SECONDS,
  WORDS_PER_ROW,
  type WordListContent,
  type WordListRejectReason,
  type WordListWarningCode,
} from '../rules/wordListRules';

export interface WordListReject {
  reason: WordListRejectReason;
  details: ErrorDetail[];
}
export interface WordListWarning {
  code: WordListWarningCode;
  details: ErrorDetail[];
}
export interface WordListCheck {
  ok: boolean;
  reject?: WordListReject;
  warnings: WordListWarning[];
}

export interface WordListCheckContext {
  /** The catalog's word-list cells (grade × skill with min and max words). */
  cells: readonly CatalogWordListCell[];
  /** The general tier of the language-safety filter: true when the text passes unchanged. */
  passesLanguageSafety(text: string): boolean;
  /**
   * The list would be operational and another operational list of the same scope already serves one of its
   * cells (same grade and skill, an overlapping window).
   */
  sharesCellWhenOperational: boolean;
}

// Letters: hamza to ghain and fa to ya (U+0621-063A, U+0641-064A), alef wasla (U+0671). Tatweel (U+0640) is
// decoration, not a letter, and a sheet must not carry it. Diacritics: tanwin to sukun, maddah and the
// hamzas above and below (U+064B-0655), the dagger alef (U+0670).
const ARABIC_WORD = /^[\u0621-\u063A\u0641-\u064A\u0671\u064B-\u0655\u0670]+$/u;
const HARAKAT = /[\u064B-\u0652\u0670]/u;

const wordField = (i: number) => `words[${i}]`;

function firstReject(content: WordListContent, ctx: WordListCheckContext): WordListReject | undefined {
  const cell = ctx.cells.find((c) => c.grade === content.grade && c.skillId === content.skillId);
  if (!cell) {
    return {
      reason: 'no_word_list_cell',
      details: [{ field: 'skillId', issue: `is not a word-list skill in grade ${content.grade}` }],
    };
  }
  if (!content.timed && content.durationSeconds !== null) {
    return {
      reason: 'untimed_with_duration',
      details: [{ field: 'timing.durationSeconds', issue: 'must be absent when timed is false' }],
    };
  }
  const { durationSeconds } = content;
  if (
    content.timed &&
    durationSeconds !== null &&
    (durationSeconds < DURATION_SECONDS.min || durationSeconds > DURATION_SECONDS.max)
  ) {
    return {
      reason: 'duration_out_of_range',
      details: [
        {
          field: 'timing.durationSeconds',
          issue: `must be between ${DURATION_SECONDS.min} and ${DURATION_SECONDS.max}`,
        },
      ],
    };
  }
  const { wordsPerRow } = content;
  if (wordsPerRow !== null && (wordsPerRow < WORDS_PER_ROW.min || wordsPerRow > WORDS_PER_ROW.max)) {
    return {
      reason: 'words_per_row_out_of_range',
      details: [{ field: 'wordsPerRow', issue: `must be between ${WORDS_PER_ROW.min} and ${WORDS_PER_ROW.max}` }],
    };
  }
  const notArabic = content.words.flatMap((w, i) =>
    ARABIC_WORD.test(w) ? [] : [{ field: wordField(i), issue: 'must be one word of Arabic letters and diacritics' }],
  );
  if (notArabic.length > 0) return { reason: 'not_arabic_word', details: notArabic };

  // The same spelling twice (after Unicode composition), diacritics included: عِلْم and عَلَم are two words.
  const firstIndex = new Map<string, number>();
  const duplicates: ErrorDetail[] = [];
  content.words.forEach((w, i) => {
    const key = w.normalize('NFC');
    const first = firstIndex.get(key);
    if (first === undefined) firstIndex.set(key, i);
    else duplicates.push({ field: wordField(i), issue: `repeats ${wordField(first)}` });
  });
  if (duplicates.length > 0) return { reason: 'duplicate_words', details: duplicates };

  if (content.words.length < cell.minWords) {
    return {
      reason: 'too_few_words',
      details: [{ field: 'words', issue: `needs at least ${cell.minWords} words in this cell` }],
    };
  }
  if (content.words.length > cell.maxWords) {
    return {
      reason: 'too_many_words',
      details: [{ field: 'words', issue: `takes at most ${cell.maxWords} words in this cell` }],
    };
  }

  const blocked = content.words.flatMap((w, i) =>
    ctx.passesLanguageSafety(w) ? [] : [{ field: wordField(i), issue: 'does not pass the language-safety filter' }],
  );
  if (content.readingNoteAr !== null && !ctx.passesLanguageSafety(content.readingNoteAr)) {
    blocked.push({ field: 'readingNoteAr', issue: 'does not pass the language-safety filter' });
  }
  if (blocked.length > 0) return { reason: 'language_safety_blocked', details: blocked };
  return undefined;
}

function warningsOf(content: WordListContent, ctx: WordListCheckContext): WordListWarning[] {
  const warnings: WordListWarning[] = [];
  if (ctx.sharesCellWhenOperational) {
    warnings.push({
      code: 'cell_has_operational_list',
      details: [{ field: 'window', issue: 'another operational list of this scope serves the cell' }],
    });
  }
  if (!content.timed) {
    warnings.push({ code: 'untimed_list', details: [{ field: 'timing.timed', issue: 'no rate can be read' }] });
  }
  if (content.readingNoteAr === null) {
    warnings.push({ code: 'no_reading_note', details: [{ field: 'readingNoteAr', issue: 'is empty' }] });
  }
  if (content.grade <= DIACRITICS_EXPECTED_UP_TO_GRADE) {
    const bare = content.words.flatMap((w, i) =>
      w.length > 0 && !HARAKAT.test(w) ? [{ field: wordField(i), issue: 'carries no harakat' }] : [],
    );
    if (bare.length > 0) warnings.push({ code: 'words_without_diacritics', details: bare });
  }
  return warnings;
}

/**
 * The builder's checks on one version's content, without touching the database: the first refusal (in the
 * order of WORD_LIST_REJECT_REASONS) and every warning. A refused list is never stored; a warned one is.
 */
export function validateWordList(content: WordListContent, ctx: WordListCheckContext): WordListCheck {
  const reject = firstReject(content, ctx);
  const warnings = warningsOf(content, ctx);
  return reject ? { ok: false, reject, warnings } : { ok: true, warnings };
}
