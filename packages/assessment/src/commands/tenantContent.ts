import { type ReadingPassage, readingPassage, type WordListView, wordListVersion } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import { notFound } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';

// The auth hook runs a route's target only for a caller without the permission; a command checks the tenant
// of the content it names itself, before the caller's reach (tenant before permission: 404 before 403).
const outOfTenant = (caller: Caller, organizationId: string | null) =>
  organizationId !== null && caller.organizationId !== null && organizationId !== caller.organizationId;

/** A passage the caller's organization may name: global or its own (any for the super-admin); else 404. */
export async function passageInTenant(sql: AnySql, caller: Caller, passageId: string): Promise<ReadingPassage> {
  const passage = await readingPassage(sql, passageId);
  if (!passage || outOfTenant(caller, passage.organizationId)) throw notFound('passage');
  return passage;
}

/** A word list the caller's organization may name: global or its own (any for the super-admin); else 404. */
export async function wordListInTenant(sql: AnySql, caller: Caller, wordListId: string): Promise<WordListView> {
  const list = await wordListVersion(sql, wordListId);
  if (!list || outOfTenant(caller, list.organizationId)) throw notFound('word list');
  return list;
}
