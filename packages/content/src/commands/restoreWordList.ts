import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { conflict } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import { assertAccepted, isSecondLiveVersion } from '../engine/wordListErrors';
import { wordListChecker } from './checkWordList';
import { lockWordListVersions } from './lockWordListVersions';
import { anotherVersionOperational, assertNoOtherLiveVersion } from './publishWordList';

/**
 * The restore rules: a retired version becomes operational again in place (same id and version; retiredAt
 * cleared, publishedAt now, so it is the newest for the serving order) when no other version of its externalId
 * is operational, and when it still passes the builder's checks. Not retired: 409 invalid_state.
 */
export async function restoreWordList(sql: Sql, caller: Caller, id: string): Promise<{ id: string }> {
  const checker = await wordListChecker(sql);
  try {
    return await inTransaction(sql, async ({ sql: tx }) => {
      const locked = await lockWordListVersions(tx, caller, id);
      const { target } = locked;
      if (target.status !== 'retired') throw conflict('invalid_state', `a ${target.status} list cannot be restored`);
      assertNoOtherLiveVersion(locked);
      const place = { scope: target.scope, organizationId: target.organizationId, schoolId: target.schoolId };
      assertAccepted(
        await checker.check(tx, { place, externalId: target.externalId, content: target.content, operational: true }),
      );
      await tx`
        update content_word_lists
        set status = 'operational', retired_at = null, published_at = now(), updated_at = now()
        where id = ${target.id}`;
      return { id: target.id };
    });
  } catch (error) {
    if (isSecondLiveVersion(error)) throw anotherVersionOperational();
    throw error;
  }
}
