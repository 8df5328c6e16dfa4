import type { WordListContent } from '../rules/wordListRules';
import { contentHash } from './hash';

/**
 * The content hash of a word-list version (content_hash). Builder writes and word-list import rows hash the
 * same fields the same way, so a re-imported list equal to a builder-made version is recognised as unchanged.
 */
export const wordListContentHash = (c: WordListContent): string =>
  contentHash({
    grade: c.grade,
    skillId: c.skillId,
    window: c.window,
    words: c.words,
    timed: c.timed,
    durationSeconds: c.durationSeconds,
    wordsPerRow: c.wordsPerRow,
    readingNoteAr: c.readingNoteAr,
  });
