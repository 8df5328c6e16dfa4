import type { Sql, TransactionSql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { conflict } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import { servedList } from '../engine/servingOrder';
import { WINDOWS } from '../queries/catalogTypes';
import { operationalCandidates } from '../queries/pickWordList';
import type { WordListRecord } from '../queries/wordListView';
import { lockWordListVersions } from './lockWordListVersions';

/**
 * After the list left: does some cell it served (its grade and skill in its window, or in every window for an
 * all-window list) have no operational list in the list's own scope chain (school → organization → global)?
 */
async function leavesCellEmpty(tx: TransactionSql, list: WordListRecord): Promise<boolean> {
  const at = {
    organizationId: list.organizationId,
    schoolId: list.schoolId,
    grade: list.content.grade,
    skillId: list.content.skillId,
  };
  const candidates = await operationalCandidates(tx, at);
  const windows = list.content.window === null ? WINDOWS : [list.content.window];
  return windows.some((window) => servedList(candidates, { ...at, window }) === null);
}

/** operational → retired (retiredAt now); anything else 409 invalid_state. */
export async function retireWordList(
  sql: Sql,
  caller: Caller,
  id: string,
): Promise<{ id: string; leavesCellEmpty: boolean }> {
  return inTransaction(sql, async ({ sql: tx }) => {
    const { target } = await lockWordListVersions(tx, caller, id);
    if (target.status !== 'operational') {
      throw conflict('invalid_state', `a ${target.status} list cannot be retired`);
    }
    await tx`
      update content_word_lists set status = 'retired', retired_at = now(), updated_at = now()
      where id = ${target.id}`;
    return { id: target.id, leavesCellEmpty: await leavesCellEmpty(tx, target) };
  });
}
