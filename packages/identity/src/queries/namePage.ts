import { unprocessable } from '@qiraa/http-kit';

/** Page size of the tenancy lists (organizations, schools): 50 by default, at most 200 (the spec leaves it open). */
export const LIST_PAGE_DEFAULT = 50;
export const LIST_PAGE_MAX = 200;

/** The sort key of a tenancy list, name then id: the last row of a page is where the next one starts. */
export interface NameKey {
  name: string;
  id: string;
}

const encode = (key: NameKey) => Buffer.from(JSON.stringify([key.name, key.id])).toString('base64url');

const invalidCursor = () =>
  unprocessable('invalid_cursor', 'cursor is not a nextCursor of this list', [
    { field: 'cursor', issue: 'unknown cursor' },
  ]);

/**
 * The key a `nextCursor` carries; 422 reason invalid_cursor for anything this list did not issue. The id must
 * look like one of the list's ids and the name may not hold U+0000, so a forged cursor never reaches
 * PostgreSQL with a value it refuses.
 */
export function decodeNameCursor(cursor: string, idPattern: RegExp): NameKey {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    typeof value[0] !== 'string' ||
    typeof value[1] !== 'string' ||
    value[0].includes('\u0000') ||
    !idPattern.test(value[1])
  ) {
    throw invalidCursor();
  }
  return { name: value[0], id: value[1] };
}

/** Rows fetched with `limit + 1` (the extra row only says that another page exists) as one page. */
export function namePage<R extends NameKey, T>(rows: readonly R[], limit: number, view: (row: R) => T) {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return { items: shown.map(view), nextCursor: rows.length > limit && last ? encode(last) : null };
}
