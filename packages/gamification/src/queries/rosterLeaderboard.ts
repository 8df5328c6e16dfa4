import type { Sql } from '@qiraa/db';
import { organizationTodayQuery } from '@qiraa/identity';
import type postgres from 'postgres';
import {
  type CountColumns,
  type LeaderboardEntry,
  type LeaderboardParams,
  sortEntries,
  toEntry,
  windowCounts,
} from './leaderboardEntries';

/** A roster as a SQL fragment selecting one `student_id` column. */
export type RosterQuery = postgres.PendingQuery<postgres.Row[]>;

/**
 * A board in one statement: every student of the roster (none left out for having no event), with the
 * mastery events of the last `windowDays` school days up to today in the organization's time zone. Two
 * primary-key lookups per student in the cumulative rollup (gam_mastery_day_counts), so a school of 2,000
 * students stays fast however large the table and the window grow. Never reads XP.
 */
export async function rosterLeaderboard(
  sql: Sql,
  organizationId: string,
  roster: RosterQuery,
  { view, windowDays }: LeaderboardParams,
  /** The clock's now (`deps.clock`): which school day is "today" in the organization's zone. */
  now: Date,
): Promise<LeaderboardEntry[]> {
  const rows = await sql<({ student_id: bigint } & CountColumns)[]>`
    with b as materialized (
      ${organizationTodayQuery(sql, organizationId, now)}
    ),
    -- In id order, so consecutive lookups land on neighbouring index pages.
    roster as (select r.student_id from (${roster}) r order by r.student_id)
    select s.student_id, k.*
    from roster s
    cross join b
    cross join lateral (${windowCounts(sql, windowDays)}) k`;
  return sortEntries(
    rows.map((r) => toEntry(r.student_id, r)),
    view,
  );
}
