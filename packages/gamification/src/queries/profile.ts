import type { Sql } from '@qiraa/db';
import { inGender, studentGender } from '@qiraa/identity';
import { avatarTierFor, CURRENT_RULE_SET, ruleSetVersion } from '../rules';
import { foldStreak } from '../streak';

export interface ProfileBadge {
  code: string;
  nameAr: string;
  descriptionAr: string;
  awardedAt: string;
  studentBadgeId?: number;
  status?: 'active' | 'rescinded';
}

/**
 * The gamification profile. `xpBalance` is summed over the XP ledger on every read (never stored); the
 * student themself never sees `studentBadgeId` and `status`. Badge texts address the child, so whoever reads
 * them gets the form of the child's gender (the neutral one when it is unknown).
 */
export async function gamificationProfile(sql: Sql, studentId: number, forStudentSelf: boolean) {
  const [xp] = await sql<{ balance: number }[]>`
    select coalesce(sum(amount), 0)::int as balance from gam_xp_ledger where student_id = ${studentId}`;
  const [count] = await sql<
    { n: number }[]
  >`select count(*)::int as n from gam_mastery_events where student_id = ${studentId}`;
  const days = await sql<{ d: string }[]>`
    select school_day::text as d from gam_student_days where student_id = ${studentId} order by school_day`;
  const holidays = await sql<{ d: string }[]>`
    select h.day::text as d from school_holidays h join users u on u.organization_id = h.organization_id
    where u.id = ${studentId}`;
  const badges = await sql<{ id: bigint; code: string; rule_version: number; awarded_at: Date; rescinded: boolean }[]>`
    select a.id, a.code, a.rule_version, a.awarded_at, r.student_badge_id is not null as rescinded
    from gam_badge_awards a left join gam_badge_rescinds r on r.student_badge_id = a.id
    where a.student_id = ${studentId} order by a.awarded_at, a.id`;
  const gender = await studentGender(sql, studentId);
  const rules = CURRENT_RULE_SET;
  const streak = foldStreak(
    days.map((r) => r.d),
    new Set(holidays.map((r) => r.d)),
    { graceSchoolDays: rules.streakGraceSchoolDays, milestones: rules.streakMilestones },
  );
  return {
    studentId,
    xpBalance: xp?.balance ?? 0,
    avatarTier: avatarTierFor(count?.n ?? 0, rules),
    streak,
    badges: badges.map((b): ProfileBadge => {
      const rule = ruleSetVersion(b.rule_version).badges.find((r) => r.code === b.code);
      const entry: ProfileBadge = {
        code: b.code,
        nameAr: rule ? inGender(rule.nameAr, gender) : b.code,
        descriptionAr: rule ? inGender(rule.descriptionAr, gender) : '',
        awardedAt: b.awarded_at.toISOString(),
      };
      if (!forStudentSelf) {
        entry.studentBadgeId = Number(b.id);
        entry.status = b.rescinded ? 'rescinded' : 'active';
      }
      return entry;
    }),
  };
}
