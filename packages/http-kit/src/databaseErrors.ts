import { isDatabaseUnavailable } from '@qiraa/db';
import { ApiError } from './apiError';

interface DatabaseError {
  name: string;
  code: string;
}

/** A PostgreSQL error as postgres.js throws it (its `code` is the SQLSTATE), here or as a `cause`. */
function databaseErrorOf(error: unknown, depth = 0): DatabaseError | undefined {
  if (!(error instanceof Error) || depth > 4) return undefined;
  const e = error as Partial<DatabaseError> & { cause?: unknown };
  if (e.name === 'PostgresError' && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
    return e as DatabaseError;
  }
  return databaseErrorOf(e.cause, depth + 1);
}

/**
 * SQLSTATEs a request's own values cause. Validation should refuse them first (a test then names the field);
 * this keeps one that gets through from becoming a 500. Everything else (syntax, missing relations) stays a
 * 500: those are our faults. Lost connections are not: `databaseApiError` answers them 503.
 */
function answerFor(sqlstate: string): ApiError | undefined {
  // Class 22, data exception: NUL in text (22021), a date/time or number out of range (22008, 22003), a value
  // the column type cannot read (22P02, 22007), JSON it cannot hold (22P05).
  if (sqlstate.startsWith('22') || sqlstate === '23502' || sqlstate === '23514' || sqlstate === '54000') {
    return new ApiError(422, 'VALIDATION_ERROR', 'a value in the request cannot be stored', {
      reason: 'unstorable_value',
    });
  }
  // Integrity: a duplicate, or a reference to a row that is gone (e.g. deleted by a concurrent request).
  if (sqlstate === '23505' || sqlstate === '23503') {
    return new ApiError(409, 'CONFLICT', 'the request conflicts with stored data', { reason: 'integrity' });
  }
  return undefined;
}

/** Seconds a client should wait before retrying while PostgreSQL is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** 503 while PostgreSQL is unreachable: nothing of the request was stored, so retrying it is safe. */
export const databaseUnavailable = () =>
  new ApiError(503, 'DATABASE_UNAVAILABLE', 'the database is unavailable; retry later', {
    retryAfter: DATABASE_RETRY_AFTER_SECONDS,
  });

/**
 * The envelope for a database error the request caused, 503 DATABASE_UNAVAILABLE for a database that is
 * unreachable (a lost or refused connection, a server shutting down), or undefined for anything else.
 */
export function databaseApiError(error: unknown): ApiError | undefined {
  if (isDatabaseUnavailable(error)) return databaseUnavailable();
  const found = databaseErrorOf(error);
  return found ? answerFor(found.code) : undefined;
}
