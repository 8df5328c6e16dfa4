import type { AnySql } from '@qiraa/db';
import { MASTERY_EVENT_SOURCE_KINDS, type MasteryEventSourceKind } from '../codes';
import { emptyCounts, type LedgerState } from '../engine/ledgerState';
import { foldStreak } from '../engine/streak';
import type { RuleSet } from '../rules';

type Counts = { total: number } & Record<MasteryEventSourceKind, number>;

export interface StateRow {
  student_id: bigint;
  counts: Counts | null;
  days: string[];
  sessions: Record<string, number>;
  badges: string[];
}

/**
 * The states the decisions about these students need, in one statement read from the read models the
 * same transaction keeps current: the counts from the last row of the cumulative day rollup, the days
 * with an event (the streak is folded from them), the XP already credited in `sessionIds` only (a
 * decision looks at its own session's XP, never at older sessions), and the badge codes. A student
 * without any of it gets a row of empty values.
 */
export function readLedgerStates(sql: AnySql, studentIds: readonly number[], sessionIds: readonly string[]) {
  return sql<StateRow[]>`
    select s.id as student_id,
      (select row_to_json(c) from gam_mastery_day_counts c
       where c.student_id = s.id order by c.school_day desc limit 1) as counts,
      array(select d.school_day::text from gam_student_days d where d.student_id = s.id order by d.school_day) as days,
      (select coalesce(json_object_agg(x.session_id, x.xp), '{}') from (
         select session_id, sum(amount)::int as xp from gam_xp_ledger
         where student_id = s.id and session_id = any(${sql.array([...sessionIds])}::text[])
           and kind in ('mastery_credit', 'badge_bonus')
         group by session_id) x) as sessions,
      array(select a.code from gam_badge_awards a where a.student_id = s.id) as badges
    from unnest(${sql.array(studentIds.map(String))}::bigint[]) as s(id)`;
}

export function toLedgerState(
  row: StateRow,
  holidays: ReadonlySet<string>,
  rules: Pick<RuleSet, 'streakGraceSchoolDays' | 'streakMilestones'>,
): LedgerState {
  const bySourceKind = emptyCounts();
  for (const kind of MASTERY_EVENT_SOURCE_KINDS) bySourceKind[kind] = row.counts?.[kind] ?? 0;
  return {
    masteryCount: row.counts?.total ?? 0,
    bySourceKind,
    days: row.days,
    streak: foldStreak(row.days, holidays, {
      graceSchoolDays: rules.streakGraceSchoolDays,
      milestones: rules.streakMilestones,
    }),
    xpBySession: new Map(Object.entries(row.sessions)),
    badgeCodes: new Set(row.badges),
  };
}
