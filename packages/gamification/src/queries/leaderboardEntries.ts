import type { Sql } from '@qiraa/db';
import { MASTERY_EVENT_SOURCE_KINDS, type MasteryEventSourceKind } from '../sourceKinds';

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

/**
 * The select list of a per-student window count over `gam_mastery_events e`: `total`, then one
 * `count(*) filter (...)` column per source kind, named after the kind. An aggregate without GROUP BY,
 * so a student with no event in the window still gets one row of zeros.
 */
export const countColumns = (sql: Sql) => [
  sql`count(*)::int as total`,
  ...MASTERY_EVENT_SOURCE_KINDS.map(
    (kind) => sql`, count(*) filter (where e.source_kind = ${kind})::int as ${sql(kind)}`,
  ),
];

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
