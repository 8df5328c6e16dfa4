import type { AnySql, Sql } from '@qiraa/db';
import { ApiError } from '@qiraa/http-kit';
import { type AttemptKind, attemptsInWindow } from '../limits/attempts';

/** Sliding window of the two quick-code limiters. */
export const QUICKCODE_WINDOW_SECONDS = 15 * 60;
/** Failed student logins per source address (`request.ip`) and window; the next one answers QUICKCODE_RATE_LIMIT. */
export const QUICKCODE_SOURCE_FAILURES = 20;
/**
 * Failed student logins per class code (or classId in the direct form) and window. A class has at most 99
 * quickCodes, so cycling through them stops after 10 guesses, whatever the number of sources.
 */
export const QUICKCODE_CLASS_FAILURES = 10;

export type QuickcodeLoginInput = { classCode: string; quickCode: string } | { classId: string; quickCode: string };

export interface StudentLoggedIn {
  id: number;
  organizationId: string;
}

const invalidOrExpired = () =>
  new ApiError(401, 'QUICKCODE_INVALID_OR_EXPIRED', 'class code or quick code is invalid, unknown or expired');

/**
 * Every attempt first takes a slot in both windows (an `auth_attempts` row), then counts them: of N
 * parallel guesses at most the limit get past the count, so cycling in parallel is stopped as early as
 * cycling in sequence. A failure keeps its slots; a success, and an attempt refused by the limiter, give
 * them back (so waiting out the window is enough, and a student's good login never counts).
 */
async function takeSlot(sql: AnySql, kind: AttemptKind, subject: string): Promise<string> {
  const [row] = await sql<{ slot: string }[]>`
    insert into auth_attempts (kind, subject) values (${kind}, ${subject}) returning ctid::text as slot`;
  return row!.slot;
}

async function giveBack(sql: AnySql, slots: readonly string[]): Promise<void> {
  await sql`delete from auth_attempts where ctid = any(${slots}::tid[])`;
}

/**
 * Student login with a class code (or, outside production, the class id) and a two-digit quickCode. An
 * unknown, renewed or lapsed class code, an unknown quickCode, an inactive enrollment and a disabled
 * account or organization all get one answer: 401 QUICKCODE_INVALID_OR_EXPIRED.
 */
export async function studentQuickcodeLogin(
  sql: Sql,
  input: QuickcodeLoginInput,
  options: { source: string; allowDirect: boolean },
): Promise<StudentLoggedIn> {
  const classKey = 'classCode' in input ? input.classCode : input.classId;
  const slots = [
    await takeSlot(sql, 'quickcode_source', options.source),
    await takeSlot(sql, 'quickcode_class', classKey),
  ];
  const bySource = await attemptsInWindow(sql, 'quickcode_source', options.source, QUICKCODE_WINDOW_SECONDS);
  const byClass = await attemptsInWindow(sql, 'quickcode_class', classKey, QUICKCODE_WINDOW_SECONDS);
  const over = [
    bySource.count > QUICKCODE_SOURCE_FAILURES ? bySource.retryAfter : 0,
    byClass.count > QUICKCODE_CLASS_FAILURES ? byClass.retryAfter : 0,
  ];
  if (over.some((seconds) => seconds > 0)) {
    await giveBack(sql, slots);
    throw new ApiError(401, 'QUICKCODE_RATE_LIMIT', 'too many quick-code attempts; try again later', {
      retryAfter: Math.max(...over),
    });
  }

  const classId =
    'classCode' in input
      ? ((
          await sql<{ class_id: string }[]>`
            select k.class_id from class_login_codes k join classes c on c.id = k.class_id and c.login_code = k.code
            where k.code = ${input.classCode} and k.superseded_at is null and k.expires_at > now()`
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
  await giveBack(sql, slots);
  return { id: Number(student.id), organizationId: student.organization_id };
}
