import type { AnySql } from '@qiraa/db';

export type AttemptKind = 'login_failure' | 'quickcode_source' | 'home_login_failure' | 'code_rotation';

export interface WindowState {
  count: number;
  /** Seconds until the oldest attempt in the window leaves it (0 when the window is empty). */
  retryAfter: number;
}

/**
 * Attempts of one kind and subject inside the sliding window ending at `now` (the request's `deps.clock`
 * reading, never the database's `now()`: a shifted or manual clock moves the window too); shared by every API
 * process.
 */
export async function attemptsInWindow(
  sql: AnySql,
  kind: AttemptKind,
  subject: string,
  windowSeconds: number,
  now: Date,
): Promise<WindowState> {
  const [row] = await sql<{ n: number; retry: number | null }[]>`
    select count(*)::int as n,
           ceil(extract(epoch from (min(at) + make_interval(secs => ${windowSeconds}) - ${now}::timestamptz)))::int as retry
    from auth_attempts
    where kind = ${kind} and subject = ${subject} and at > ${now}::timestamptz - make_interval(secs => ${windowSeconds})`;
  return { count: row?.n ?? 0, retryAfter: Math.max(1, row?.retry ?? 0) };
}

/** One attempt at `now` (the clock's, as the window reads it). */
export async function recordAttempt(sql: AnySql, kind: AttemptKind, subject: string, now: Date): Promise<void> {
  await sql`insert into auth_attempts (kind, subject, at) values (${kind}, ${subject}, ${now})`;
}

/** A successful login resets its window. */
export async function clearAttempts(sql: AnySql, kind: AttemptKind, subject: string): Promise<void> {
  await sql`delete from auth_attempts where kind = ${kind} and subject = ${subject}`;
}
