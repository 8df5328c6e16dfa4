import type { Sql } from '@qiraa/db';
import { activeMembershipsQuery, organizationTodayQuery, taughtClassesQuery } from '@qiraa/identity';
import {
  type CountColumns,
  type LeaderboardEntry,
  type LeaderboardParams,
  sortEntries,
  toEntry,
  windowCounts,
} from './leaderboardEntries';

export interface ClassTotal {
  classId: string;
  masteryEventCount: number;
  bandProgressionCount: number;
}

type Row = { class_id: string; student_id: bigint | null } & { [K in keyof CountColumns]: CountColumns[K] | null };

/**
 * The teacher board in one statement: the roll-up over all the teacher's classes (only those of
 * `schoolId` when given: a principal sees the classes of their own school), one entry per active student
 * however many of the classes they sit in, plus each class's totals over its own active students. The
 * statement returns one row per (class, student), and one row with no student for a class without any.
 * Counts: the mastery events of the last `windowDays` school days up to today in the organization's time
 * zone, two lookups in the cumulative rollup per distinct student. Never reads XP.
 */
export async function teacherLeaderboard(
  sql: Sql,
  scope: { teacherUserId: number; organizationId: string; schoolId: string | null },
  { view, windowDays }: LeaderboardParams,
  /** The clock's now (`deps.clock`): which school day is "today" in the organization's zone. */
  now: Date,
): Promise<{ entries: LeaderboardEntry[]; classes: ClassTotal[] }> {
  const rows = await sql<Row[]>`
    with b as materialized (
      ${organizationTodayQuery(sql, scope.organizationId, now)}
    ),
    taught as (${taughtClassesQuery(sql, scope.teacherUserId, scope.schoolId)}),
    membership as (${activeMembershipsQuery(sql, sql`select class_id from taught`)}),
    -- Materialized: counted once per distinct student, then joined (never re-counted per membership row).
    counts as materialized (
      select s.student_id, k.*
      from (select distinct student_id from membership) s
      cross join b
      cross join lateral (${windowCounts(sql, windowDays)}) k
    )
    select t.class_id, c.*
    from taught t
    left join membership m on m.class_id = t.class_id
    left join counts c on c.student_id = m.student_id
    order by t.class_id collate "C"`;

  const entries = new Map<string, LeaderboardEntry>();
  const classes = new Map<string, ClassTotal>();
  for (const row of rows) {
    const total = classes.get(row.class_id) ?? { classId: row.class_id, masteryEventCount: 0, bandProgressionCount: 0 };
    classes.set(row.class_id, total);
    if (row.student_id === null || row.total === null) continue;
    const entry = toEntry(row.student_id, row as { student_id: bigint } & CountColumns);
    total.masteryEventCount += entry.masteryEventCount;
    total.bandProgressionCount += entry.bandProgressionCount;
    entries.set(String(row.student_id), entry);
  }
  return { entries: sortEntries([...entries.values()], view), classes: [...classes.values()] };
}
