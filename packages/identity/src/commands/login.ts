import type { Sql } from '@qiraa/db';
import { ApiError } from '@qiraa/http-kit';
import { verifyPassword } from '../engine/passwords';
import type { Persona } from '../engine/permissions';
import { attemptsInWindow, clearAttempts, recordAttempt } from './authAttempts';

export const LOCKOUT_FAILURES = 10;
export const LOCKOUT_WINDOW_SECONDS = 15 * 60;

export interface LoggedIn {
  id: number;
  persona: Persona;
  organizationId: string | null;
}

/**
 * Adult login. Ten failures in fifteen minutes lock the account (even the right password then answers
 * 401 BRUTE_FORCE_LOCKED with Retry-After); an unknown email and a wrong password answer alike and cost
 * one argon2 verification each; a success clears the window.
 */
export async function login(sql: Sql, email: string, password: string, now: Date): Promise<LoggedIn> {
  const account = email.toLowerCase();
  const window = await attemptsInWindow(sql, 'login_failure', account, LOCKOUT_WINDOW_SECONDS, now);
  if (window.count >= LOCKOUT_FAILURES) {
    throw new ApiError(401, 'BRUTE_FORCE_LOCKED', 'too many failed logins; try again later', {
      retryAfter: window.retryAfter,
    });
  }
  const [user] = await sql<
    {
      id: bigint;
      password_hash: string | null;
      primary_persona: Persona;
      organization_id: string | null;
      usable: boolean;
    }[]
  >`
    select u.id, u.password_hash, u.primary_persona, u.organization_id,
           (u.disabled_at is null and o.disabled_at is null) as usable
    from users u left join organizations o on o.id = u.organization_id
    where u.email = ${account} and u.primary_persona <> 'STUDENT'`;
  const ok = await verifyPassword(user?.password_hash ?? null, password);
  if (!ok || !user?.usable) {
    await recordAttempt(sql, 'login_failure', account, now);
    throw new ApiError(401, 'INVALID_CREDENTIALS', 'wrong email or password');
  }
  await clearAttempts(sql, 'login_failure', account);
  return { id: Number(user.id), persona: user.primary_persona, organizationId: user.organization_id };
}
