import { unprocessable } from '@qiraa/http-kit';

/** An opaque page cursor: base64url of a small JSON value the query continues from. */
export const encodeCursor = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The value a cursor holds, checked by `accept`; a cursor that is not ours is 422 reason invalid_cursor. */
export function decodeCursor<T>(cursor: string, accept: (value: unknown) => value is T): T {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (!accept(value)) {
    throw unprocessable('invalid_cursor', 'cursor is not a next of this list', [
      { field: 'cursor', issue: 'not a cursor this list gave' },
    ]);
  }
  return value;
}
