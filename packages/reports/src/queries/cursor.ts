/** The opaque page cursor of the session results: the last row's start (microseconds since the epoch) and id. */
export interface ResultsCursor {
  startedAtKey: string;
  attemptId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const encodeCursor = (c: ResultsCursor): string =>
  Buffer.from(JSON.stringify({ s: c.startedAtKey, i: c.attemptId })).toString('base64url');

/** The cursor, or null when it is not one of ours (the route answers 422 invalid_cursor). */
export function decodeCursor(cursor: string): ResultsCursor | null {
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s?: unknown; i?: unknown };
    // Digits only: at most 16 (to year 2286), so the timestamp arithmetic never leaves PostgreSQL's range.
    if (typeof c.s !== 'string' || !/^-?\d{1,16}$/.test(c.s)) return null;
    if (typeof c.i !== 'string' || !UUID.test(c.i)) return null;
    return { startedAtKey: c.s, attemptId: c.i };
  } catch {
    return null;
  }
}
