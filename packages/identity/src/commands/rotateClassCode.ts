import { recordAuditEvent } from '@qiraa/audit';
import { inTransaction } from '@qiraa/db';
import { rateLimited } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import type { Caller } from '../engine/caller';
import { newClassCode } from '../ids';
import { type ClassRow, classInScope } from '../queries/scope';
import { attemptsInWindow, recordAttempt } from './authAttempts';
import { CLASS_CODE_DAYS } from './createClass';

/** Class code rotations per user and window (spec, Limits); the next one answers 429 RATE_LIMITED. */
export const CODE_ROTATIONS_PER_WINDOW = 10;
export const CODE_ROTATION_WINDOW_SECONDS = 15 * 60;

export interface RotatedCode {
  classId: string;
  loginCode: string;
  loginCodeExpiresAt: string;
  rotated: boolean;
}

/**
 * Renews a class's login code: a new code valid 365 days, the old one superseded at once (student login
 * and class preview with it fail from this commit on), and an audit event `class_login_code_rotated`
 * with detail `manual`, or `expired_on_copy` when `onlyIfExpired` found the code lapsed. `onlyIfExpired`
 * on a live code changes nothing and is not counted. Rotations are serialized per user (advisory lock),
 * so parallel calls cannot pass the limit together.
 */
export async function rotateClassCode(
  deps: Pick<ContextDeps, 'sql' | 'store'>,
  caller: Caller,
  classId: string,
  options: { onlyIfExpired: boolean; now: Date },
): Promise<RotatedCode> {
  const now = options.now;
  await classInScope(deps.sql, caller, classId, 'manage_students');
  const subject = String(caller.userId);
  return inTransaction(deps.sql, async (uow) => {
    const tx = uow.sql;
    await tx`select pg_advisory_xact_lock(hashtext(${`code_rotation:${subject}`}))`;
    const [cls] = await tx<(ClassRow & { live: boolean })[]>`
      select *, login_code_expires_at > ${now}::timestamptz as live from classes where id = ${classId} for update`;
    const current = cls!;
    if (options.onlyIfExpired && current.live) {
      return {
        classId,
        loginCode: current.login_code,
        loginCodeExpiresAt: current.login_code_expires_at.toISOString(),
        rotated: false,
      };
    }
    const window = await attemptsInWindow(tx, 'code_rotation', subject, CODE_ROTATION_WINDOW_SECONDS, now);
    if (window.count >= CODE_ROTATIONS_PER_WINDOW) throw rateLimited(window.retryAfter);

    const code = newClassCode();
    await tx`update class_login_codes set superseded_at = ${now} where class_id = ${classId} and superseded_at is null`;
    const [updated] = await tx<{ login_code_expires_at: Date }[]>`
      update classes set login_code = ${code}, login_code_expires_at = ${now}::timestamptz + make_interval(days => ${CLASS_CODE_DAYS})
      where id = ${classId} returning login_code_expires_at`;
    await tx`insert into class_login_codes (code, class_id, issued_at, expires_at)
             values (${code}, ${classId}, ${now}, ${updated!.login_code_expires_at})`;
    await recordAttempt(tx, 'code_rotation', subject, now);
    await recordAuditEvent(
      deps.store,
      {
        eventType: 'class_login_code_rotated',
        organizationId: current.organization_id,
        actorUserId: caller.userId,
        targetClassId: classId,
        occurredAt: now,
        detail: { detail: options.onlyIfExpired ? 'expired_on_copy' : 'manual' },
      },
      uow,
    );
    return {
      classId,
      loginCode: code,
      loginCodeExpiresAt: updated!.login_code_expires_at.toISOString(),
      rotated: true,
    };
  });
}
