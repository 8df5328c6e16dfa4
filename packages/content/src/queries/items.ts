import type { AnySql } from '@qiraa/db';
import type { Caller } from '@qiraa/identity';
import { visibleScope } from '../scope';
import type { ContentRole } from './catalogTypes';
import { type ItemRowDb, type ItemStatus, itemColumns } from './itemViews';

/** Page size of `GET /api/items`: 20 by default, at most 100. */
export const ITEM_PAGE_DEFAULT = 20;
export const ITEM_PAGE_MAX = 100;

export interface ItemFilter {
  contentRole?: ContentRole;
  measureCode?: string;
  subSkillId?: string;
  grade?: number;
  /** 'all' lists every status. */
  status: ItemStatus | 'all';
  trainingLevel?: number;
  screeningFormId?: string;
}

/** Opaque cursor: the last row's (externalId, version, id) in list order. */
interface Cursor {
  e: string;
  v: number;
  i: string;
}

export function decodeItemCursor(cursor: string): Cursor | null {
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (typeof c.e !== 'string' || typeof c.i !== 'string' || !Number.isSafeInteger(c.v)) return null;
    return { e: c.e, v: c.v!, i: c.i };
  } catch {
    return null;
  }
}

const encodeCursor = (r: ItemRowDb) =>
  Buffer.from(JSON.stringify({ e: r.external_id, v: r.version, i: r.id } satisfies Cursor)).toString('base64url');

/**
 * Items the caller can see (own organization and global; all for the super-admin), by external id, newest
 * version first (versions of one item sit together).
 */
export async function listItems(
  sql: AnySql,
  caller: Caller,
  filter: ItemFilter,
  page: { limit: number; after: Cursor | null },
): Promise<{ rows: ItemRowDb[]; nextCursor: string | null }> {
  const a = page.after;
  const rows = await sql<ItemRowDb[]>`
    select ${itemColumns(sql)} from content_items
    where ${visibleScope(sql, caller)}
      ${filter.status === 'all' ? sql`` : sql`and status = ${filter.status}`}
      ${filter.contentRole ? sql`and content_role = ${filter.contentRole}` : sql``}
      ${filter.measureCode ? sql`and measure_code = ${filter.measureCode}` : sql``}
      ${filter.subSkillId ? sql`and sub_skill_id = ${filter.subSkillId}` : sql``}
      ${filter.grade !== undefined ? sql`and grade = ${filter.grade}` : sql``}
      ${filter.trainingLevel !== undefined ? sql`and training_level = ${filter.trainingLevel}` : sql``}
      ${filter.screeningFormId ? sql`and screening_form_id = ${filter.screeningFormId}` : sql``}
      ${
        a
          ? sql`and (external_id > ${a.e} or (external_id = ${a.e} and (version < ${a.v} or (version = ${a.v} and id > ${a.i}))))`
          : sql``
      }
    order by external_id, version desc, id
    limit ${page.limit + 1}`;
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : [...rows];
  const last = shown.at(-1);
  return { rows: shown, nextCursor: more && last ? encodeCursor(last) : null };
}

/** One item, whatever the caller may see of it (the route applies the tenant rule). */
export async function itemRowById(sql: AnySql, id: string): Promise<ItemRowDb | null> {
  const [row] = await sql<ItemRowDb[]>`select ${itemColumns(sql)} from content_items where id = ${id}`;
  return row ?? null;
}
