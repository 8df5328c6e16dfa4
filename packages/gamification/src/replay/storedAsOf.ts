import type { AnySql } from '@qiraa/db';
import { avatarTierFor, CURRENT_RULE_SET } from '../rules';
import type { LedgerKeys } from './replayStudent';

/**
 * The same keys as the read models hold them as of `asOf`: XP rows and mastery events recorded by then,
 * mastery events less those reversed by then, badges whose award committed by then (the award commits with its triggering mastery event, so that
 * event's `recorded_at` is the award's time; `awarded_at` is the application clock and only stands in for
 * an award without one) minus those rescinded by then. A rescind's time is likewise the `recorded_at` of its
 * compensating XP row (a void's rescind without one: its mastery reversal's), both the events' createdAt as the
 * replay reads it; `rescinded_at` is the application clock (QIRAA_CLOCK_SHIFT_DAYS moves it) and only stands
 * in for a rescind with neither. Read the way the profile reads them, in one statement.
 */
export async function storedAsOf(sql: AnySql, studentId: number, asOf: Date): Promise<LedgerKeys> {
  const [row] = await sql<{ balance: number; n: number; badges: string[] }[]>`
    select
      (select coalesce(sum(amount), 0)::int from gam_xp_ledger
       where student_id = ${studentId} and recorded_at <= ${asOf}) as balance,
      (select count(*)::int from gam_mastery_events where student_id = ${studentId} and recorded_at <= ${asOf})
        - (select count(*)::int from gam_mastery_reversals
           where student_id = ${studentId} and reversed_at <= ${asOf}) as n,
      array(
        select a.code from gam_badge_awards a
        left join gam_mastery_events m on m.id = a.triggering_mastery_event_id
        where a.student_id = ${studentId} and coalesce(m.recorded_at, a.awarded_at) <= ${asOf}
          and not exists (
            select 1 from gam_badge_rescinds r
            left join gam_xp_ledger x on x.id = r.compensating_xp_transaction_id
            left join gam_mastery_reversals v on v.mastery_event_id = a.triggering_mastery_event_id
            where r.student_badge_id = a.id and coalesce(x.recorded_at, v.reversed_at, r.rescinded_at) <= ${asOf})
      ) as badges`;
  return {
    xpBalance: row?.balance ?? 0,
    badgeCodes: [...(row?.badges ?? [])].sort(),
    avatarTier: avatarTierFor(row?.n ?? 0, CURRENT_RULE_SET),
  };
}
