import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { conflict } from '@qiraa/http-kit';
import type { Clock } from '@qiraa/kernel';
import { sessionRow } from '../queries/sessionQueries';
import { logTransition } from './sessionLog';

/**
 * POST cancel: draft → cancelled (409 not_draft otherwise); it stays listed under recently generated. Its
 * cancelledAt is `deps.clock`'s now (the wall clock only without one).
 */
export async function cancelSession(
  deps: { sql: Sql; clock?: Clock },
  actorId: number,
  sessionId: string,
): Promise<void> {
  const now = deps.clock?.now() ?? new Date();
  await inTransaction(deps.sql, async ({ sql: tx }) => {
    const row = await sessionRow(tx, sessionId, true);
    if (row.status !== 'draft') throw conflict('not_draft', `the session is ${row.status}; only a draft is cancelled`);
    await tx`update ses_sessions set status = 'cancelled', cancelled_at = ${now}, updated_at = ${now} where id = ${sessionId}`;
    await logTransition(tx, sessionId, 'cancelled', actorId);
  });
}
