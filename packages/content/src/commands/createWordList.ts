import type { AnySql, Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { conflict } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import type { WordListCheck } from '../engine/validateWordList';
import { assertAccepted, isTakenVersion } from '../engine/wordListErrors';
import { type WordListPlace, wordListPlace } from '../queries/wordListScope';
import type { WordListContent } from '../rules/wordListRules';
import { wordListChecker } from './checkWordList';
import { insertWordListVersion } from './insertWordListVersion';
import { lockContentScope } from './lockContentScope';

export interface NewWordList {
  externalId: string;
  organizationId?: string | undefined;
  schoolId?: string | undefined;
  content: WordListContent;
  publish: boolean;
}

const externalIdTaken = () => conflict('external_id_taken', 'this externalId is already used in this scope');

/** True when any version (any status) of the externalId exists in exactly this scope. */
async function externalIdUsed(sql: AnySql, place: WordListPlace, externalId: string) {
  const [row] = await sql`
    select 1 from content_word_lists
    where coalesce(organization_id, '') = ${place.organizationId ?? ''}
      and coalesce(school_id, '') = ${place.schoolId ?? ''} and external_id = ${externalId}
    limit 1`;
  return row !== undefined;
}

/**
 * POST /api/admin/word-lists: version 1, operational when `publish` (else draft). The externalId check comes
 * before the content checks: a taken id is 409 external_id_taken whatever the content. Two concurrent
 * creates of one externalId: the unique (scope, externalId, version) constraint lets one in, the other is
 * the same 409.
 */
export async function createWordList(
  sql: Sql,
  caller: Caller,
  input: NewWordList,
): Promise<{ id: string; check: WordListCheck }> {
  const place = await wordListPlace(sql, caller, input);
  const checker = await wordListChecker(sql);
  try {
    return await inTransaction(sql, async ({ sql: tx }) => {
      await lockContentScope(tx, place.organizationId);
      if (await externalIdUsed(tx, place, input.externalId)) throw externalIdTaken();
      const check = await checker.check(tx, {
        place,
        externalId: input.externalId,
        content: input.content,
        operational: input.publish,
      });
      assertAccepted(check);
      const id = await insertWordListVersion(tx, {
        place,
        externalId: input.externalId,
        version: 1,
        status: input.publish ? 'operational' : 'draft',
        content: input.content,
        sourceVersionId: null,
        createdBy: caller.userId,
      });
      return { id, check };
    });
  } catch (error) {
    if (isTakenVersion(error)) throw externalIdTaken();
    throw error;
  }
}
