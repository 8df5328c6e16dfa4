import type { Sql } from '@qiraa/db';
import type { LeaderboardEntry, LeaderboardParams } from './leaderboardEntries';
import { rosterLeaderboard } from './rosterLeaderboard';

/** The class board: every active student of the class. */
export function classLeaderboard(
  sql: Sql,
  scope: { classId: string; organizationId: string },
  params: LeaderboardParams,
  now: Date,
): Promise<LeaderboardEntry[]> {
  const roster = sql`
    select cs.student_user_id as student_id from class_students cs where cs.class_id = ${scope.classId} and cs.active`;
  return rosterLeaderboard(sql, scope.organizationId, roster, params, now);
}
