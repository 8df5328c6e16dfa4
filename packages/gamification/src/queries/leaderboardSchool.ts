import type { Sql } from '@qiraa/db';
import { activeSchoolRosterQuery } from '@qiraa/identity';
import type { LeaderboardEntry, LeaderboardParams } from './leaderboardEntries';
import { rosterLeaderboard } from './rosterLeaderboard';

/** The school board: every active student of the school's classes, once even when in two classes. */
export function schoolLeaderboard(
  sql: Sql,
  scope: { schoolId: string; organizationId: string },
  params: LeaderboardParams,
  now: Date,
): Promise<LeaderboardEntry[]> {
  return rosterLeaderboard(sql, scope.organizationId, activeSchoolRosterQuery(sql, scope.schoolId), params, now);
}
