import type { WindowCode } from '../queries/catalogTypes';
import { DEFAULT_DURATION_SECONDS, type WordListContent } from '../rules/wordListRules';

export interface TimingBody {
  timed: boolean;
  durationSeconds?: number | null | undefined;
}

/** A timing as sent: a timed list without a duration runs the default 60 seconds; untimed keeps what was sent. */
export const timingOf = (t: TimingBody) => ({
  timed: t.timed,
  durationSeconds: t.durationSeconds ?? (t.timed ? DEFAULT_DURATION_SECONDS : null),
});

/** The content of a create (or validate) body; timing omitted is { timed: true, durationSeconds: 60 }. */
export const contentOfCreateBody = (b: {
  grade: number;
  skillId: string;
  window: WindowCode | null;
  words: string[];
  timing?: TimingBody | undefined;
  wordsPerRow?: number | null | undefined;
  readingNoteAr?: string | null | undefined;
}): WordListContent => ({
  grade: b.grade,
  skillId: b.skillId,
  window: b.window,
  words: b.words,
  ...timingOf(b.timing ?? { timed: true }),
  wordsPerRow: b.wordsPerRow ?? null,
  readingNoteAr: b.readingNoteAr ?? null,
});
