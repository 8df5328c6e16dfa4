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
 * The school board in one statement: every active student of the school's classes (once, even when in
 * two classes), with the mastery events of the last `windowDays` school days up to today in the
 * organization's time zone. One index-only range scan per student (gam_mastery_events_student_day_idx),
 * so 2,000 students stay fast however large the table grows. Never reads XP.
 */
export async function schoolLeaderboard(
  sql: Sql,
  scope: { schoolId: string; organizationId: string },
  { view, windowDays }: LeaderboardParams,
): Promise<LeaderboardEntry[]> {
  const rows = await sql<({ student_id: bigint } & CountColumns)[]>`
    with b as (
      select (now() at time zone o.time_zone)::date as today from organizations o where o.id = ${scope.organizationId}
    ),
    roster as (
      select distinct cs.student_user_id as student_id
      from class_students cs join classes c on c.id = cs.class_id
      where c.school_id = ${scope.schoolId} and cs.active
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
