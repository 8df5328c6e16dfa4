import type { Sql } from '@qiraa/db';
import {
  type CountColumns,
  countColumns,
  type LeaderboardEntry,
  type LeaderboardParams,
  sortEntries,
  toEntry,
} from './leaderboardEntries';

/**
 * The class board in one statement: every active student of the class (none left out for having no
 * event), with the mastery events of the last `windowDays` school days up to today in the organization's
 * time zone. One index-only range scan per student (gam_mastery_events_student_day_idx). Never reads XP.
 */
export async function classLeaderboard(
  sql: Sql,
  scope: { classId: string; organizationId: string },
  { view, windowDays }: LeaderboardParams,
): Promise<LeaderboardEntry[]> {
  const rows = await sql<({ student_id: bigint } & CountColumns)[]>`
    with b as (
      select (now() at time zone o.time_zone)::date as today from organizations o where o.id = ${scope.organizationId}
    ),
    roster as (
      select cs.student_user_id as student_id from class_students cs where cs.class_id = ${scope.classId} and cs.active
    )
    select r.student_id, k.*
    from roster r
    cross join b
    cross join lateral (
      select ${countColumns(sql)}
      from gam_mastery_events e
      where e.student_id = r.student_id and e.school_day between b.today - ${windowDays - 1}::int and b.today
    ) k`;
  return sortEntries(
    rows.map((r) => toEntry(r.student_id, r)),
    view,
  );
}
