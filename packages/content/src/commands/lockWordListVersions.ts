import type { TransactionSql } from '@qiraa/db';
import { notFound } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import { recordOf, selectWordLists, type WordListRecord } from '../queries/wordListView';
import { assertCanChange, canSee } from '../scope';
import { lockContentScope } from './lockContentScope';

export interface LockedWordList {
  target: WordListRecord;
  /** Every version of the target's externalId in its scope, oldest first (the target among them). */
  versions: WordListRecord[];
}

/**
 * Opens a state change on one list: 404 when the caller cannot see it, 403 when it is global and the caller
 * is not the super-admin, then the scope's version lock (shared with imports) and `select ... for update` on every version of its externalId in its scope, so
 * two state changes of one list run one after the other and each sees the other's result.
 */
export async function lockWordListVersions(tx: TransactionSql, caller: Caller, id: string): Promise<LockedWordList> {
  const [head] = await tx<{ organization_id: string | null; school_id: string | null; external_id: string }[]>`
    select organization_id, school_id, external_id from content_word_lists where id = ${id}`;
  if (!head || !canSee(caller, head.organization_id)) throw notFound('word list');
  assertCanChange(caller, head.organization_id, 'word list');
  // The scope lock first, as imports take it: an import numbering a new version of this list waits for us.
  await lockContentScope(tx, head.organization_id);
  const sameList = tx`
    coalesce(organization_id, '') = ${head.organization_id ?? ''} and coalesce(school_id, '') = ${head.school_id ?? ''}
    and external_id = ${head.external_id}`;
  await tx`select id from content_word_lists where ${sameList} order by version for update`;
  const versions = (await selectWordLists(tx, sameList)).map(recordOf).sort((a, b) => a.version - b.version);
  const target = versions.find((v) => v.id === id);
  if (!target) throw notFound('word list');
  return { target, versions };
}

/** The versions of the target's externalId other than the target that are operational, newer or older. */
export function operationalSiblings({ target, versions }: LockedWordList) {
  const live = versions.filter((v) => v.id !== target.id && v.status === 'operational');
  return {
    newer: live.some((v) => v.version > target.version),
    older: live.some((v) => v.version < target.version),
  };
}
