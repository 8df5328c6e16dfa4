import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { conflict } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import { assertAccepted, isSecondLiveVersion } from '../engine/wordListErrors';
import { wordListChecker } from './checkWordList';
import { type LockedWordList, lockWordListVersions, operationalSiblings } from './lockWordListVersions';

export const anotherVersionOperational = () =>
  conflict('another_version_operational', 'an older version of this list is operational; retire it first');

/**
 * The one-operational-version rule of publish and restore: a newer operational version is 409
 * newer_version_operational (going back would hide it), an older one 409 another_version_operational (the
 * admin retires it first; nothing is retired implicitly).
 */
export function assertNoOtherLiveVersion(locked: LockedWordList): void {
  const live = operationalSiblings(locked);
  if (live.newer) throw conflict('newer_version_operational', 'a newer version of this list is operational');
  if (live.older) throw anotherVersionOperational();
}

/**
 * Makes a draft operational, re-running the builder's checks first (the catalog or the language-safety rules
 * may have changed since the draft was saved). Not a draft: 409 invalid_state.
 */
export async function publishWordList(sql: Sql, caller: Caller, id: string): Promise<{ id: string }> {
  const checker = await wordListChecker(sql);
  try {
    return await inTransaction(sql, async ({ sql: tx }) => {
      const locked = await lockWordListVersions(tx, caller, id);
      const { target } = locked;
      if (target.status !== 'draft') throw conflict('invalid_state', `a ${target.status} list cannot be published`);
      assertNoOtherLiveVersion(locked);
      const place = { scope: target.scope, organizationId: target.organizationId, schoolId: target.schoolId };
      assertAccepted(
        await checker.check(tx, { place, externalId: target.externalId, content: target.content, operational: true }),
      );
      await tx`
        update content_word_lists set status = 'operational', published_at = now(), updated_at = now()
        where id = ${target.id}`;
      return { id: target.id };
    });
  } catch (error) {
    if (isSecondLiveVersion(error)) throw anotherVersionOperational();
    throw error;
  }
}
