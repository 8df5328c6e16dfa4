import { describe, expect, it } from 'vitest';
import type { CatalogWordListCell } from '../queries/catalogTypes';
import type { WordListContent } from '../rules/wordListRules';
import { validateWordList, type WordListCheckContext } from './validateWordList';

const cells: CatalogWordListCell[] = [
  { grade: 1, skillId: 'familiar_word_reading', minWords: 10, maxWords: 30 },
  { grade: 3, skillId: 'familiar_word_reading', minWords: 20, maxWords: 60 },
];
const FAMILIAR = ['بَيْت', 'قَلَم', 'شَمْس', 'وَرْدَة', 'كِتَاب', 'بَاب', 'سَمَك', 'جَمَل', 'قَمَر', 'نَهْر'];

const list = (over: Partial<WordListContent> = {}): WordListContent => ({
  grade: 1,
  skillId: 'familiar_word_reading',
  window: 'BOY',
  words: [...FAMILIAR],
  timed: true,
  durationSeconds: 60,
  wordsPerRow: null,
  readingNoteAr: 'اقرأ الكلمات من اليمين إلى اليسار',
  ...over,
});
const ctx = (over: Partial<WordListCheckContext> = {}): WordListCheckContext => ({
  cells,
  passesLanguageSafety: (text) => !text.includes('ضعيف'),
  sharesCellWhenOperational: false,
  ...over,
});
const reasonOf = (c: WordListContent, x = ctx()) => validateWordList(c, x).reject?.reason;

describe('validateWordList', () => {
  it('accepts a grade 1 list of ten voweled familiar words with no warning', () => {
    expect(validateWordList(list(), ctx())).toEqual({ ok: true, warnings: [] });
  });

  it('refuses a skill without a word-list cell in the grade', () => {
    expect(reasonOf(list({ skillId: 'letter_sounds' }))).toBe('no_word_list_cell');
    expect(reasonOf(list({ grade: 2 }))).toBe('no_word_list_cell');
  });

  it('refuses a duration on an untimed list, and a duration outside 10..600', () => {
    expect(reasonOf(list({ timed: false, durationSeconds: 60 }))).toBe('untimed_with_duration');
    expect(reasonOf(list({ durationSeconds: 9 }))).toBe('duration_out_of_range');
    expect(reasonOf(list({ durationSeconds: 601 }))).toBe('duration_out_of_range');
    expect(reasonOf(list({ durationSeconds: 10 }))).toBeUndefined();
    expect(reasonOf(list({ durationSeconds: 600 }))).toBeUndefined();
  });

  it('refuses words per row outside 1..10', () => {
    expect(reasonOf(list({ wordsPerRow: 0 }))).toBe('words_per_row_out_of_range');
    expect(reasonOf(list({ wordsPerRow: 11 }))).toBe('words_per_row_out_of_range');
    expect(reasonOf(list({ wordsPerRow: 1 }))).toBeUndefined();
    expect(reasonOf(list({ wordsPerRow: 10 }))).toBeUndefined();
  });

  it('refuses a word with anything but Arabic letters and diacritics, naming each one', () => {
    const words = [...FAMILIAR];
    words[2] = 'شمس ';
    words[4] = 'book';
    words[6] = 'قـمر';
    words[7] = '';
    words[8] = 'قَمَر1';
    const check = validateWordList(list({ words }), ctx());
    expect(check.ok).toBe(false);
    expect(check.reject?.reason).toBe('not_arabic_word');
    expect(check.reject?.details.map((d) => d.field)).toEqual([
      'words[2]',
      'words[4]',
      'words[6]',
      'words[7]',
      'words[8]',
    ]);
  });

  it('accepts shadda, tanwin, hamza forms, ta marbuta and alef maqsura', () => {
    const words = ['تُفَّاح', 'كِتَابٌ', 'سَمَاء', 'مُؤْمِن', 'سُؤَال', 'إِبْرَة', 'آمِنَة', 'مُوسَى', 'شَجَرَة', 'لَيْلَى'];
    expect(reasonOf(list({ words }))).toBeUndefined();
  });

  it('refuses the same spelling twice, in either Unicode composition', () => {
    const words = [...FAMILIAR, 'قَلَم'];
    const check = validateWordList(list({ words }), ctx());
    expect(check.reject).toEqual({
      reason: 'duplicate_words',
      details: [{ field: 'words[10]', issue: 'repeats words[1]' }],
    });
    // Shadda then fatha, and fatha then shadda: one spelling once composed.
    const shaddaFirst = 'تُف\u0651\u064Eاح';
    const fathaFirst = 'تُف\u064E\u0651اح';
    expect(reasonOf(list({ words: [...FAMILIAR.slice(0, 9), shaddaFirst, fathaFirst] }))).toBe('duplicate_words');
    // The same word with other harakat is another word.
    expect(reasonOf(list({ words: [...FAMILIAR, 'قُلَم'] }))).toBeUndefined();
  });

  it('refuses fewer than the cell’s minimum and more than its maximum', () => {
    expect(reasonOf(list({ words: FAMILIAR.slice(0, 9) }))).toBe('too_few_words');
    expect(reasonOf(list({ words: [] }))).toBe('too_few_words');
    const many = Array.from({ length: 31 }, (_, i) => 'بَ'.repeat(i + 1));
    expect(reasonOf(list({ words: many }))).toBe('too_many_words');
    expect(reasonOf(list({ words: many.slice(0, 30) }))).toBeUndefined();
  });

  it('refuses a word or a reading note the language filter does not pass', () => {
    const words = [...FAMILIAR.slice(0, 9), 'ضَعِيف'];
    const blocked = validateWordList(list({ words }), ctx({ passesLanguageSafety: (t) => t !== 'ضَعِيف' }));
    expect(blocked.reject).toEqual({
      reason: 'language_safety_blocked',
      details: [{ field: 'words[9]', issue: 'does not pass the language-safety filter' }],
    });
    expect(reasonOf(list({ readingNoteAr: 'الطالب ضعيف' }))).toBe('language_safety_blocked');
  });

  it('answers the first reason in the documented order', () => {
    expect(reasonOf(list({ skillId: 'letter_sounds', durationSeconds: 5, words: [] }))).toBe('no_word_list_cell');
    expect(reasonOf(list({ durationSeconds: 5, wordsPerRow: 0 }))).toBe('duration_out_of_range');
    expect(reasonOf(list({ words: ['cat', 'cat'] }))).toBe('not_arabic_word');
    expect(reasonOf(list({ words: ['قَلَم', 'قَلَم'] }))).toBe('duplicate_words');
  });

  it('warns, without refusing, about a shared cell, an untimed list, no reading note and bare words', () => {
    const words = [...FAMILIAR.slice(0, 8), 'قمر', 'نهر'];
    const check = validateWordList(
      list({ words, timed: false, durationSeconds: null, readingNoteAr: null }),
      ctx({ sharesCellWhenOperational: true }),
    );
    expect(check.ok).toBe(true);
    expect(check.warnings.map((w) => w.code)).toEqual([
      'cell_has_operational_list',
      'untimed_list',
      'no_reading_note',
      'words_without_diacritics',
    ]);
    expect(check.warnings[3]?.details.map((d) => d.field)).toEqual(['words[8]', 'words[9]']);
  });

  it('expects harakat only up to grade 2', () => {
    const bare = Array.from({ length: 20 }, (_, i) => `كتاب${'ب'.repeat(i)}`);
    expect(validateWordList(list({ grade: 3, words: bare }), ctx()).warnings).toEqual([]);
  });

  it('still lists the warnings of a refused list', () => {
    const check = validateWordList(list({ words: [], readingNoteAr: null }), ctx());
    expect(check.reject?.reason).toBe('too_few_words');
    expect(check.warnings.map((w) => w.code)).toEqual(['no_reading_note']);
  });
});
