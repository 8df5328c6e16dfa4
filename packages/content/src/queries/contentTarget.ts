import type { AnySql } from '@qiraa/db';
import { notFound } from '@qiraa/http-kit';
import { callerOf, requestInput, schoolOrganization, type TargetCheck } from '@qiraa/identity';
import { canSee, namedOrganization } from '../scope';

/** Content a request names by id; the organization column says whose (null: global content). */
const scopeOf = {
  school: async (sql: AnySql, id: string) => {
    const organizationId = await schoolOrganization(sql, id);
    return organizationId === undefined ? [] : [{ organization_id: organizationId as string | null }];
  },
  item: (sql: AnySql, id: string) =>
    sql<{ organization_id: string | null }[]>`select organization_id from content_items where id = ${id}`,
  batch: (sql: AnySql, id: string) =>
    sql<{ organization_id: string | null }[]>`select organization_id from content_import_batches where id = ${id}`,
  form: (sql: AnySql, id: string) =>
    sql<{ organization_id: string | null }[]>`select organization_id from content_screening_forms where id = ${id}`,
  wordList: (sql: AnySql, id: string) =>
    sql<{ organization_id: string | null }[]>`select organization_id from content_word_lists where id = ${id}`,
};
export type ContentTargetKind = 'organization' | keyof typeof scopeOf;

const labels: Record<ContentTargetKind, string> = {
  organization: 'organization',
  school: 'school',
  item: 'item',
  batch: 'import batch',
  form: 'screening form',
  wordList: 'word list',
};

/** A (possibly nested, `formServe.formId`) input field. */
function fieldOf(input: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], input);
}

/**
 * A route's `target` check (tenant before permission): each named content, organization or school must
 * exist and be visible to the caller (global content is), else 404 like the handler itself answers.
 */
export const contentTarget =
  (sql: AnySql, fields: Readonly<Record<string, ContentTargetKind>>): TargetCheck =>
  async (request) => {
    const caller = callerOf(request);
    const input = requestInput(request);
    for (const [path, kind] of Object.entries(fields)) {
      const id = fieldOf(input, path);
      if (typeof id !== 'string') continue;
      if (kind === 'organization') {
        await namedOrganization(sql, caller, id);
        continue;
      }
      const [row] = await scopeOf[kind](sql, id);
      if (!row || !canSee(caller, row.organization_id)) throw notFound(labels[kind]);
    }
  };
