import { unprocessable } from '@qiraa/http-kit';

/** Page size of the training-alert list: 100 by default, at most 500 (the spec leaves it open; docs/api.md). */
export const ALERT_PAGE_DEFAULT = 100;
export const ALERT_PAGE_MAX = 500;

/** The list's sort key, newest first: the last row of a page is where the next page starts. */
export interface AlertKey {
  /** raisedAt as PostgreSQL prints a timestamptz (microseconds and offset), compared as one in SQL. */
  raisedAt: string;
  alertId: string;
}

/** PostgreSQL's text form of a timestamptz, so a forged cursor never reaches it with a value it refuses. */
const TIMESTAMP =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const encodeAlertCursor = (key: AlertKey) =>
  Buffer.from(JSON.stringify(['alerts', key.raisedAt, key.alertId])).toString('base64url');

/** The key a nextCursor carries; 422 reason invalid_cursor for anything this list did not issue. */
export function decodeAlertCursor(cursor: string): AlertKey {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = null;
  }
  if (Array.isArray(value) && value.length === 3 && value[0] === 'alerts' && typeof value[1] === 'string') {
    if (TIMESTAMP.test(value[1]) && typeof value[2] === 'string' && UUID.test(value[2])) {
      return { raisedAt: value[1], alertId: value[2] };
    }
  }
  throw unprocessable('invalid_cursor', 'cursor is not a nextCursor of this list', [
    { field: 'cursor', issue: 'unknown cursor' },
  ]);
}
