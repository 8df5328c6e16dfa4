import type { AnySql } from '@qiraa/db';

/** One row of the session's log (ses_session_log), written in the transaction of the change it records. */
export async function logTransition(
  sql: AnySql,
  sessionId: string,
  action: string,
  actorId: number | null,
  detail: Record<string, unknown> = {},
): Promise<void> {
  await sql`insert into ses_session_log (session_id, action, actor_id, detail)
            values (${sessionId}, ${action}, ${actorId}, ${sql.json(detail as never)})`;
}
