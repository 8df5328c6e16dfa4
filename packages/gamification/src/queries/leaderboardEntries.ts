import type { Sql } from '@qiraa/db';
import { MASTERY_EVENT_SOURCE_KINDS, type MasteryEventSourceKind } from '../codes';

/** What a board is ordered by (spec: `view`). */
export const LEADERBOARD_VIEWS = ['by_mastery_events', 'by_band_progression'] as const;
export type LeaderboardView = (typeof LEADERBOARD_VIEWS)[number];

/** `windowDays`: the last N school days up to today in the organization's time zone (spec Limits). */
export const LEADERBOARD_WINDOW_DAYS = { min: 1, max: 90, default: 14 } as const;

export interface LeaderboardParams {
  view: LeaderboardView;
  windowDays: number;
}

/** Source kinds that occurred in the window, each with its count (kinds with no event are left out). */
export type SourceKindBreakdown = Partial<Record<MasteryEventSourceKind, number>>;

export interface LeaderboardEntry {
  studentId: number;
  masteryEventCount: number;
  bandProgressionCount: number;
  sourceKindBreakdown: SourceKindBreakdown;
}

/** A student's counts as the board queries select them: `total` plus one column per source kind. */
export type CountColumns = { total: number } & Record<MasteryEventSourceKind, number>;

const COUNT_COLUMNS = ['total', ...MASTERY_EVENT_SOURCE_KINDS].join(', ');

/**
 * The window counts of one student, read from the cumulative rollup gam_mastery_day_counts: the last row
 * on or before `b.today` minus the last row before the window's first day (two lookups in its primary key,
 * whatever the window; index-only, since the key carries the count columns, migration 0019). Selects
 * `total` plus one column per source kind, and one row of zeros for a student without events. Expects
 * `s.student_id` and `b.today` in scope (`b` materialized, so `today` is one value, not an expression
 * evaluated again in every lookup); the window is the last `windowDays` days up to today.
 */
export const windowCounts = (sql: Sql, windowDays: number) => sql`
  select coalesce(hi.total, 0) - coalesce(lo.total, 0) as total,
    ${sql.unsafe(MASTERY_EVENT_SOURCE_KINDS.map((k) => `coalesce(hi.${k}, 0) - coalesce(lo.${k}, 0) as ${k}`).join(', '))}
  from (select) one
  left join lateral (
    select ${sql.unsafe(COUNT_COLUMNS)} from gam_mastery_day_counts c
    where c.student_id = s.student_id and c.school_day <= b.today
    order by c.school_day desc limit 1
  ) hi on true
  left join lateral (
    select ${sql.unsafe(COUNT_COLUMNS)} from gam_mastery_day_counts c
    where c.student_id = s.student_id and c.school_day <= b.today - ${windowDays}::int
    order by c.school_day desc limit 1
  ) lo on true`;

export function toEntry(studentId: bigint | number, counts: CountColumns): LeaderboardEntry {
  const sourceKindBreakdown: SourceKindBreakdown = {};
  for (const kind of MASTERY_EVENT_SOURCE_KINDS) if (counts[kind] > 0) sourceKindBreakdown[kind] = counts[kind];
  return {
    studentId: Number(studentId),
    masteryEventCount: counts.total,
    bandProgressionCount: counts.band_progression,
    sourceKindBreakdown,
  };
}

/** The view's count, descending; ties by studentId, ascending. */
export function sortEntries(entries: LeaderboardEntry[], view: LeaderboardView): LeaderboardEntry[] {
  const count = (e: LeaderboardEntry) =>
    view === 'by_band_progression' ? e.bandProgressionCount : e.masteryEventCount;
  return entries.sort((a, b) => count(b) - count(a) || a.studentId - b.studentId);
}
