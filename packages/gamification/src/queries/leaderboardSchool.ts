import type { Sql } from '@qiraa/db';
import type { LeaderboardEntry, LeaderboardParams } from './leaderboardEntries';
import { rosterLeaderboard } from './rosterLeaderboard';

/** The school board: every active student of the school's classes, once even when in two classes. */
export function schoolLeaderboard(
  sql: Sql,
  scope: { schoolId: string; organizationId: string },
  params: LeaderboardParams,
  now: Date,
): Promise<LeaderboardEntry[]> {
  const roster = sql`
    select distinct cs.student_user_id as student_id
    from class_students cs join classes c on c.id = cs.class_id
    where c.school_id = ${scope.schoolId} and cs.active`;
  return rosterLeaderboard(sql, scope.organizationId, roster, params, now);
}
