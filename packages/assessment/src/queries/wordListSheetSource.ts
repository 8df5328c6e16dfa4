import { operationalWordList, type SheetWordList } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import { notFound } from '@qiraa/http-kit';
import { type Caller, isSuperAdmin } from '@qiraa/identity';

/**
 * The operational word list a sheet prints: a global list, or one of the caller's organization (its
 * schools' lists included). Another organization's, a missing, a draft or a retired list: 404.
 */
export async function wordListForSheet(sql: AnySql, caller: Caller, id: string): Promise<SheetWordList> {
  const list = await operationalWordList(sql, id);
  const visible =
    list !== null &&
    (list.organizationId === null || isSuperAdmin(caller) || list.organizationId === caller.organizationId);
  if (!visible) throw notFound('word list');
  return list;
}
