import { Type } from 'typebox';

/** Largest value of a PostgreSQL `integer` column. */
export const MAX_INT4 = 2_147_483_647;

/**
 * An id of a `bigint` column (users, students, badges, XP transactions): positive, and exact as a JS number, so
 * a larger one is refused as 422 rather than overflowing in the database.
 */
export const BigintId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

/** A positive value of an `integer` column: versions, revisions, form positions. */
export const PositiveInt4 = Type.Integer({ minimum: 1, maximum: MAX_INT4 });

/**
 * An instant, RFC 3339 with an offset (`2026-11-01T08:00:00Z`); the API's `date-time` format (formats.ts) also
 * refuses leap seconds and instants outside 1000-01-02 to 9999-12-30 (UTC).
 */
export const DateTime = Type.String({ format: 'date-time' });

/** A school day, a real calendar day of the years 1000 to 9999 written `YYYY-MM-DD` (the API's `date` format, formats.ts). */
export const SchoolDay = Type.String({ format: 'date', description: 'YYYY-MM-DD, a real calendar day' });
