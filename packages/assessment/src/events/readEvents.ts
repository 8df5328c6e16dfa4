/** The cells a read-band cut table bands: a passage read aloud, or a word list of either skill. */
export const READ_CELLS = ['oral_text', 'oral_familiar_words', 'oral_pseudowords'] as const;
export type ReadCell = (typeof READ_CELLS)[number];

/** The word-list cells of the teacher page, one per word-list skill (the catalog's oral measures say which). */
export type WordListCell = Extract<ReadCell, 'oral_familiar_words' | 'oral_pseudowords'>;

/** What a banded read stores to find its cut table again on read and on replay. */
export interface ReadCutPin {
  readonly version: string;
  readonly organizationId: string | null;
}
