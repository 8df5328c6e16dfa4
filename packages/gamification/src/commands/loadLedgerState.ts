import type { AnySql } from '@qiraa/db';
import { emptyCounts, type LedgerState } from '../domain/ledgerState';
import type { RuleSet } from '../rules';
import type { MasteryEventSourceKind } from '../sourceKinds';
import { foldStreak } from '../streak';

/** The state a decision needs, read from the read models the same transaction keeps current. */
export async function loadLedgerState(
  sql: AnySql,
  studentId: number,
  holidays: ReadonlySet<string>,
  rules: Pick<RuleSet, 'streakGraceSchoolDays' | 'streakMilestones'>,
): Promise<LedgerState> {
  const kinds = await sql<{ source_kind: MasteryEventSourceKind; n: number }[]>`
    select source_kind, count(*)::int as n from gam_mastery_events where student_id = ${studentId} group by source_kind`;
  const days = await sql<{ d: string }[]>`
    select school_day::text as d from gam_student_days where student_id = ${studentId} order by school_day`;
  const sessions = await sql<{ session_id: string; xp: number }[]>`
    select session_id, sum(amount)::int as xp from gam_xp_ledger
    where student_id = ${studentId} and kind <> 'rescind_reversal' group by session_id`;
  const badges = await sql<{ code: string }[]>`select code from gam_badge_awards where student_id = ${studentId}`;
  const bySourceKind = emptyCounts();
  for (const row of kinds) bySourceKind[row.source_kind] = row.n;
  return {
    masteryCount: kinds.reduce((sum, row) => sum + row.n, 0),
    bySourceKind,
    days: days.map((r) => r.d),
    streak: foldStreak(
      days.map((r) => r.d),
      holidays,
      { graceSchoolDays: rules.streakGraceSchoolDays, milestones: rules.streakMilestones },
    ),
    xpBySession: new Map(sessions.map((s) => [s.session_id, s.xp])),
    badgeCodes: new Set(badges.map((b) => b.code)),
  };
}
