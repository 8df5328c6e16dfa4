import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { notFound, rateLimited, unprocessable } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import { newSessionsId } from '../ids';
import { canSee } from '../queries/blueprintScope';
import { requireClassTeacher } from '../queries/sessionAccess';
import { logTransition } from './sessionLog';

/** Spec Limits: 30 session creations per 15 minutes per teacher; the 31st is 429 RATE_LIMITED. */
export const CREATIONS_PER_WINDOW = 30;
export const CREATION_WINDOW_SECONDS = 15 * 60;

/**
 * POST from-blueprint: a draft pinned to the blueprint version, for a class the caller teaches. The rate window
 * lives in PostgreSQL (ses_session_creations), counted and written under a per-teacher advisory lock in the
 * same transaction as the draft, so every API process shares it and parallel requests cannot pass 30.
 */
export async function createSession(
  deps: { sql: Sql },
  caller: Caller,
  input: { classId: string; blueprintId: string },
  /** The request's `deps.clock` reading: the rate window ends here. */
  now: Date,
): Promise<string> {
  const cls = await requireClassTeacher(deps.sql, caller, input.classId);
  const [bp] = await deps.sql<
    {
      id: string;
      version: number;
      status: string;
      grade: number;
      organization_id: string | null;
      theme: string;
      sub_skill_ids: string[];
    }[]
  >`select id, version, status, grade, organization_id, theme, sub_skill_ids from ses_blueprints where id = ${input.blueprintId}`;
  if (
    !bp ||
    !canSee(caller, bp.organization_id) ||
    (bp.organization_id !== null && bp.organization_id !== cls.organization_id)
  ) {
    throw notFound('blueprint');
  }
  if (bp.status !== 'operational') {
    throw unprocessable('blueprint_not_operational', 'only an operational blueprint makes a session', [
      { field: 'blueprintId', issue: `blueprint is ${bp.status}` },
    ]);
  }
  if (bp.grade !== cls.grade) {
    throw unprocessable('grade_mismatch', 'the blueprint is for another grade than the class', [
      { field: 'blueprintId', issue: `blueprint grade ${bp.grade}, class grade ${cls.grade}` },
    ]);
  }
  const id = newSessionsId('ses');
  const teacher = String(caller.userId);
  await inTransaction(deps.sql, async ({ sql: tx }) => {
    await tx`select pg_advisory_xact_lock(hashtext(${`ses_creation:${teacher}`}))`;
    const [window] = await tx<{ n: number; retry: number | null }[]>`
      select count(*)::int as n,
             ceil(extract(epoch from (min(at) + make_interval(secs => ${CREATION_WINDOW_SECONDS}) - ${now}::timestamptz)))::int as retry
      from ses_session_creations
      where teacher_user_id = ${caller.userId} and at > ${now}::timestamptz - make_interval(secs => ${CREATION_WINDOW_SECONDS})`;
    if ((window?.n ?? 0) >= CREATIONS_PER_WINDOW) throw rateLimited(Math.max(1, window?.retry ?? 1));
    await tx`insert into ses_session_creations (teacher_user_id, at) values (${caller.userId}, ${now})`;
    await tx`
      insert into ses_sessions (id, organization_id, school_id, class_id, teacher_user_id, blueprint_id,
                                blueprint_version, status, theme, sub_skill_ids)
      values (${id}, ${cls.organization_id}, ${cls.school_id}, ${cls.id}, ${caller.userId}, ${bp.id}, ${bp.version},
              'draft', ${bp.theme}, ${bp.sub_skill_ids})`;
    await logTransition(tx, id, 'created', caller.userId, { blueprintId: bp.id, blueprintVersion: bp.version });
  });
  return id;
}
