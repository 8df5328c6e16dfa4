import type { Sql } from '@qiraa/db';
import { activeClassRosterQuery } from '@qiraa/identity';
import type { LeaderboardEntry, LeaderboardParams } from './leaderboardEntries';
import { rosterLeaderboard } from './rosterLeaderboard';

/** The class board: every active student of the class. */
export function classLeaderboard(
  sql: Sql,
  scope: { classId: string; organizationId: string },
  params: LeaderboardParams,
  now: Date,
): Promise<LeaderboardEntry[]> {
  return rosterLeaderboard(sql, scope.organizationId, activeClassRosterQuery(sql, scope.classId), params, now);
}
