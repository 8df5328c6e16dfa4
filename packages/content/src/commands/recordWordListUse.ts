import type { AnySql } from '@qiraa/db';

/**
 * Records that an assessment read a list (its assessmentsCount). Idempotent: the same assessmentRef twice
 * counts once; `recorded` says whether this call added the row. Call it in the assessment's own transaction.
 */
export async function recordWordListUse(
  sql: AnySql,
  input: { wordListId: string; assessmentRef: string },
): Promise<{ recorded: boolean }> {
  const rows = await sql`
    insert into content_word_list_uses (word_list_id, assessment_ref)
    values (${input.wordListId}, ${input.assessmentRef})
    on conflict (word_list_id, assessment_ref) do nothing
    returning 1`;
  return { recorded: rows.length === 1 };
}
