import type { AnySql, Sql } from '@qiraa/db';
import { ApiError } from '@qiraa/http-kit';
import { attemptsInWindow, clearAttempts } from './authAttempts';

/** Sliding window of the quick-code limiter. */
export const QUICKCODE_WINDOW_SECONDS = 15 * 60;
/** Failed student logins per source address (`request.ip`) and window; the next one answers QUICKCODE_RATE_LIMIT. */
export const QUICKCODE_SOURCE_FAILURES = 20;

export type QuickcodeLoginInput = { classCode: string; quickCode: string } | { classId: string; quickCode: string };

export interface StudentLoggedIn {
  id: number;
  organizationId: string;
}

const invalidOrExpired = () =>
  new ApiError(401, 'QUICKCODE_INVALID_OR_EXPIRED', 'class code or quick code is invalid, unknown or expired');

/**
 * The spec's one quick-code limit is per source (QUICKCODE_RATE_LIMIT), and "rate-limit windows reset on a
 * successful request". There is deliberately no per-class window: it locked a whole classroom out, children
 * typing the right code included, after one child's typos (issue 24).
 *
 * Every attempt first takes a slot (an `auth_attempts` row), then counts: of N parallel guesses at most the
 * limit get past the count. A failure keeps its slot; an attempt refused by the limiter gives it back (so
 * waiting out the window is enough); a success clears the source's whole window.
 */
async function takeSlot(sql: AnySql, source: string, now: Date): Promise<string> {
  const [row] = await sql<{ slot: string }[]>`
    insert into auth_attempts (kind, subject, at) values ('quickcode_source', ${source}, ${now})
    returning ctid::text as slot`;
  return row!.slot;
}

/** Counts one quick-code attempt from the source (class-code and home login alike); over the limit 401. */
export async function enterSourceWindow(sql: AnySql, source: string, now: Date): Promise<void> {
  const slot = await takeSlot(sql, source, now);
  const bySource = await attemptsInWindow(sql, 'quickcode_source', source, QUICKCODE_WINDOW_SECONDS, now);
  if (bySource.count > QUICKCODE_SOURCE_FAILURES) {
    await sql`delete from auth_attempts where ctid = ${slot}::tid`;
    throw new ApiError(401, 'QUICKCODE_RATE_LIMIT', 'too many quick-code attempts; try again later', {
      retryAfter: bySource.retryAfter,
    });
  }
}

/** A successful sign-in resets its source's window (spec: "rate-limit windows reset on a successful request"). */
export const resetSourceWindow = (sql: AnySql, source: string) => clearAttempts(sql, 'quickcode_source', source);

/**
 * Student login with a class code (or, outside production, the class id) and a two-digit quickCode. An
 * unknown, renewed or lapsed class code, an unknown quickCode, an inactive enrollment and a disabled
 * account or organization all get one answer: 401 QUICKCODE_INVALID_OR_EXPIRED.
 */
export async function studentQuickcodeLogin(
  sql: Sql,
  input: QuickcodeLoginInput,
  options: { source: string; allowDirect: boolean; now: Date },
): Promise<StudentLoggedIn> {
  await enterSourceWindow(sql, options.source, options.now);

  const classId =
    'classCode' in input
      ? ((
          await sql<{ class_id: string }[]>`
            select k.class_id from class_login_codes k join classes c on c.id = k.class_id and c.login_code = k.code
            where k.code = ${input.classCode} and k.superseded_at is null and k.expires_at > ${options.now}::timestamptz`
        )[0]?.class_id ?? null)
      : options.allowDirect
        ? input.classId
        : null;
  const [student] =
    classId === null
      ? []
      : await sql<{ id: bigint; organization_id: string }[]>`
          select u.id, u.organization_id
          from class_students s
          join users u on u.id = s.student_user_id
          join organizations o on o.id = u.organization_id
          where s.class_id = ${classId} and s.quick_code = ${input.quickCode} and s.active
            and u.primary_persona = 'STUDENT' and u.disabled_at is null and o.disabled_at is null`;
  if (!student) throw invalidOrExpired();
  await resetSourceWindow(sql, options.source);
  return { id: Number(student.id), organizationId: student.organization_id };
}
