import { inTransaction, type Sql } from '@qiraa/db';
import { ApiError } from '@qiraa/http-kit';
import { LOGIN_NAME_PATTERN, normalizeLoginName } from '../schemas/loginName';
import { attemptsInWindow, clearAttempts, recordAttempt } from './authAttempts';
import { LOCKOUT_FAILURES, LOCKOUT_WINDOW_SECONDS } from './login';
import { enterSourceWindow, resetSourceWindow, type StudentLoggedIn } from './studentQuickcodeLogin';

const invalid = () =>
  new ApiError(401, 'QUICKCODE_INVALID_OR_EXPIRED', 'login name or quick code is invalid, unknown or inactive');

/**
 * Home login: the child's loginName and their permanent quickCode (the spec: "quickCode ... also serves as the
 * home-login password"). The spec's login lockout covers it: 10 failures in 15 minutes per loginName lock it
 * (even the right code answers 401 BRUTE_FORCE_LOCKED with Retry-After); a success clears the window.
 *
 * The attempts at one name are decided one at a time (a transaction lock on the name), so N parallel guesses let
 * exactly 10 through as failures. Each attempt also counts in the quick-code window of its source address
 * (401 QUICKCODE_RATE_LIMIT past 20 failures).
 */
export async function studentHomeLogin(
  sql: Sql,
  input: { loginName: string; quickCode: string },
  options: { source: string; now: Date },
): Promise<StudentLoggedIn> {
  // One address spraying many names with a common code meets the quick-code source limit first.
  await enterSourceWindow(sql, options.source, options.now);
  const loginName = normalizeLoginName(input.loginName);
  // One name's attempts are decided one at a time (a transaction lock on the name), so parallel guesses count
  // exactly: the 10th failure locks it, the 11th guess and the right code after it answer BRUTE_FORCE_LOCKED.
  const outcome = await inTransaction(sql, async ({ sql: tx }) => {
    await tx`select pg_advisory_xact_lock(hashtext(${`home-login:${loginName}`}))`;
    const window = await attemptsInWindow(tx, 'home_login_failure', loginName, LOCKOUT_WINDOW_SECONDS, options.now);
    if (window.count >= LOCKOUT_FAILURES) return { kind: 'locked' as const, retryAfter: window.retryAfter };
    // Any active enrollment's code: a child moved to another class keeps the name and uses the new class's code.
    const [student] = LOGIN_NAME_PATTERN.test(loginName)
      ? await tx<{ id: bigint; organization_id: string }[]>`
          select u.id, u.organization_id
          from users u
          join organizations o on o.id = u.organization_id
          where u.login_name = ${loginName} and u.primary_persona = 'STUDENT'
            and u.disabled_at is null and o.disabled_at is null
            and exists (select 1 from class_students s
                        where s.student_user_id = u.id and s.active and s.quick_code = ${input.quickCode})`
      : [];
    if (!student) {
      await recordAttempt(tx, 'home_login_failure', loginName, options.now);
      return { kind: 'invalid' as const };
    }
    await clearAttempts(tx, 'home_login_failure', loginName);
    return { kind: 'ok' as const, student };
  });
  if (outcome.kind === 'locked') {
    throw new ApiError(401, 'BRUTE_FORCE_LOCKED', 'too many failed logins; try again later', {
      retryAfter: outcome.retryAfter,
    });
  }
  if (outcome.kind === 'invalid') throw invalid();
  const { student } = outcome;
  await resetSourceWindow(sql, options.source);
  return { id: Number(student.id), organizationId: student.organization_id };
}
