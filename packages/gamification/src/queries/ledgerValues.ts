import type { AnySql } from '@qiraa/db';

/** The student's XP balance as the ledger read model holds it (the auditor's explanation compares it with the events). */
export async function xpBalanceOf(sql: AnySql, studentId: number): Promise<number> {
  const [row] = await sql<{ balance: number }[]>`
    select coalesce(sum(amount), 0)::int as balance from gam_xp_ledger where student_id = ${studentId}`;
  return row?.balance ?? 0;
}

/** The codes of the student's badges awarded and not rescinded, as the read model holds them, sorted. */
export async function activeBadgeCodesOf(sql: AnySql, studentId: number): Promise<string[]> {
  const rows = await sql<{ code: string }[]>`
    select a.code from gam_badge_awards a
    where a.student_id = ${studentId}
      and not exists (select 1 from gam_badge_rescinds r where r.student_badge_id = a.id)
    order by a.code`;
  return rows.map((r) => r.code);
}
