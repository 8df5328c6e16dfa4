import type { Sql } from '@qiraa/db';
import { ApiError } from '@qiraa/http-kit';
import type { Caller } from '../engine/caller';
import { canonicalHandoffCode, newHandoffCode, sha256 } from '../engine/passwordlessSecrets';
import { loadCaller } from '../queries/loadCaller';
import { studentReach } from '../queries/studentReach';

/** A handoff code lives two minutes: long enough to walk to the tablet, short enough to be useless later. */
export const HANDOFF_CODE_SECONDS = 120;

export interface IssuedHandoffCode {
  code: string;
  expiresAt: string;
  expiresIn: number;
}

export const stateExpired = (what: string) => new ApiError(401, 'STATE_EXPIRED', `${what} expired or already used`);

/**
 * Issues a code that hands a session to another device. Without `studentId` the caller hands over their
 * own session; with it, a teacher of the student's class or an organization admin hands over the
 * student's (another organization's or a missing student: 404; anyone else in the organization: 403).
 */
export async function issueHandoffCode(
  sql: Sql,
  caller: Caller,
  studentId: number | undefined,
  now: Date,
): Promise<IssuedHandoffCode> {
  let subject = caller.userId;
  if (studentId !== undefined) {
    const reached = await studentReach(sql, caller, studentId);
    if (reached.reach !== 'teacher' && reached.reach !== 'admin' && reached.reach !== 'self') {
      throw new ApiError(
        403,
        'PERMISSION_DENIED',
        'only a class teacher or an organization admin hands over a student',
      );
    }
    subject = studentId;
  }
  const code = newHandoffCode();
  const [row] = await sql<{ expires_at: Date }[]>`
    insert into auth_handoff_codes (code_hash, user_id, issued_by, expires_at)
    values (${sha256(code)}, ${subject}, ${caller.userId}, ${new Date(now.getTime() + HANDOFF_CODE_SECONDS * 1000)})
    returning expires_at`;
  return { code, expiresAt: row!.expires_at.toISOString(), expiresIn: HANDOFF_CODE_SECONDS };
}

/**
 * Redeems a code once: one compare-and-set (`consumed_at is null and expires_at > now` → now, the injected clock), so of
 * parallel redeems exactly one wins. Unknown, expired and consumed codes get the same 401 STATE_EXPIRED.
 */
export async function redeemHandoffCode(sql: Sql, typed: string, now: Date): Promise<Caller> {
  const [won] = await sql<{ user_id: bigint }[]>`
    update auth_handoff_codes set consumed_at = ${now}
    where code_hash = ${sha256(canonicalHandoffCode(typed))} and consumed_at is null and expires_at > ${now}
    returning user_id`;
  if (!won) throw stateExpired('handoff code');
  const caller = await loadCaller(sql, Number(won.user_id));
  if (!caller) throw new ApiError(401, 'SESSION_REVOKED', 'the account or its organization is disabled');
  return caller;
}
