import type { AnySql } from '@qiraa/db';
import { avatarTierFor, CURRENT_RULE_SET } from '../rules';
import type { LedgerKeys } from './replayStudent';

/**
 * The same keys as the read models hold them as of `asOf`: XP rows and mastery events recorded by then,
 * badges whose award committed by then (the award commits with its triggering mastery event, so that
 * event's `recorded_at` is the award's time; `awarded_at` is the application clock and only stands in for
 * an award without one) minus those rescinded by then. Read the way the profile reads them.
 */
export async function storedAsOf(sql: AnySql, studentId: number, asOf: Date): Promise<LedgerKeys> {
  const [xp] = await sql<{ balance: number }[]>`
    select coalesce(sum(amount), 0)::int as balance from gam_xp_ledger
    where student_id = ${studentId} and recorded_at <= ${asOf}`;
  const [count] = await sql<{ n: number }[]>`
    select count(*)::int as n from gam_mastery_events where student_id = ${studentId} and recorded_at <= ${asOf}`;
  const badges = await sql<{ code: string }[]>`
    select a.code from gam_badge_awards a
    left join gam_mastery_events m on m.id = a.triggering_mastery_event_id
    where a.student_id = ${studentId} and coalesce(m.recorded_at, a.awarded_at) <= ${asOf}
      and not exists (
        select 1 from gam_badge_rescinds r where r.student_badge_id = a.id and r.rescinded_at <= ${asOf})`;
  return {
    xpBalance: xp?.balance ?? 0,
    badgeCodes: badges.map((b) => b.code).sort(),
    avatarTier: avatarTierFor(count?.n ?? 0, CURRENT_RULE_SET),
  };
}
