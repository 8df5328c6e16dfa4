import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { conflict, notFound } from '@qiraa/http-kit';
import type { OverrideCode } from '../codes';
import { sessionRow } from '../queries/sessionQueries';
import { logTransition } from './sessionLog';

/**
 * POST recipients/{studentId}/include: a held-out student gets a slot with a fixed override code (closed list,
 * no free text). The session must be previewed (409 not_previewed); a student without a row in the session is
 * 404; one already included is 409 already_included.
 */
export async function includeRecipient(
  deps: { sql: Sql },
  actorId: number,
  sessionId: string,
  studentId: number,
  overrideCode: OverrideCode,
): Promise<void> {
  await inTransaction(deps.sql, async ({ sql: tx }) => {
    const row = await sessionRow(tx, sessionId, true);
    const [slot] = await tx<{ included: boolean }[]>`
      select included from ses_session_students where session_id = ${sessionId} and student_id = ${studentId}`;
    if (!slot) throw notFound('session recipient');
    if (row.status !== 'previewed') {
      throw conflict('not_previewed', `the session is ${row.status}; students are included while it is previewed`);
    }
    if (slot.included) throw conflict('already_included', 'the student already has a slot');
    await tx`
      update ses_session_students set included = true, override_code = ${overrideCode}
      where session_id = ${sessionId} and student_id = ${studentId}`;
    await logTransition(tx, sessionId, 'recipient_included', actorId, { studentId, overrideCode });
  });
}
