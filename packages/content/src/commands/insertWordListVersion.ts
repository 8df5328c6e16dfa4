import type { TransactionSql } from '@qiraa/db';
import { wordListContentHash } from '../engine/wordListContentHash';
import { newContentId } from '../ids';
import type { WordListPlace } from '../queries/wordListScope';
import type { WordListContent, WordListStatus } from '../rules/wordListRules';

/** Stores one version of a list (publishedAt set when it starts operational); returns its id. */
export async function insertWordListVersion(
  tx: TransactionSql,
  input: {
    place: WordListPlace;
    externalId: string;
    version: number;
    status: Exclude<WordListStatus, 'retired'>;
    content: WordListContent;
    sourceVersionId: string | null;
    createdBy: number;
  },
): Promise<string> {
  const id = newContentId('wl');
  const { place, content: c } = input;
  await tx`
    insert into content_word_lists
      (id, external_id, scope, organization_id, school_id, version, grade, skill_id, window_code, words, timed,
       duration_seconds, words_per_row, reading_note_ar, status, content_hash, source_version_id, created_by,
       published_at)
    values
      (${id}, ${input.externalId}, ${place.scope}, ${place.organizationId}, ${place.schoolId}, ${input.version},
       ${c.grade}, ${c.skillId}, ${c.window}, ${tx.array(c.words)}::text[], ${c.timed}, ${c.durationSeconds},
       ${c.wordsPerRow}, ${c.readingNoteAr}, ${input.status}, ${wordListContentHash(c)}, ${input.sourceVersionId},
       ${input.createdBy}, ${input.status === 'operational' ? tx`now()` : null})`;
  return id;
}
