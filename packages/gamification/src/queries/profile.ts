import type { Sql } from '@qiraa/db';
import { inGender, studentGender, userOrganizationQuery } from '@qiraa/identity';
import { foldStreak } from '../engine/streak';
import { avatarTierFor, CURRENT_RULE_SET, ruleSetVersion } from '../rules';

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
 * student themself never sees `studentBadgeId` and `status`. One statement (the tier's count is the last row
 * of the cumulative day rollup), with the child's gender read beside it: badge texts address the child, so
 * whoever reads them gets the form of the child's gender (the neutral one when it is unknown).
 */
export async function gamificationProfile(sql: Sql, studentId: number, forStudentSelf: boolean) {
  const [[row], gender] = await Promise.all([
    sql<
      {
        balance: number;
        n: number;
        days: string[];
        holidays: string[];
        badges: { id: number; code: string; rule_version: number; awarded_at: string; rescinded: boolean }[];
      }[]
    >`
    select
      (select coalesce(sum(amount), 0)::int from gam_xp_ledger where student_id = ${studentId}) as balance,
      coalesce((select total from gam_mastery_day_counts where student_id = ${studentId}
                order by school_day desc limit 1), 0) as n,
      array(select school_day::text from gam_student_days where student_id = ${studentId} order by school_day) as days,
      array(select h.day::text from school_holidays h
            where h.organization_id = (${userOrganizationQuery(sql, studentId)})) as holidays,
      (select coalesce(json_agg(b order by b.awarded_at, b.id), '[]') from (
         select a.id, a.code, a.rule_version, a.awarded_at, r.student_badge_id is not null as rescinded
         from gam_badge_awards a left join gam_badge_rescinds r on r.student_badge_id = a.id
         where a.student_id = ${studentId}) b) as badges`,
    studentGender(sql, studentId),
  ]);
  const days = row?.days ?? [];
  const holidays = row?.holidays ?? [];
  const badges = row?.badges ?? [];
  const rules = CURRENT_RULE_SET;
  const streak = foldStreak(days, new Set(holidays), {
    graceSchoolDays: rules.streakGraceSchoolDays,
    milestones: rules.streakMilestones,
  });
  return {
    studentId,
    xpBalance: row?.balance ?? 0,
    avatarTier: avatarTierFor(row?.n ?? 0, rules),
    streak,
    // The child's entry has no status (spec), so a rescinded badge is not shown to the child at all.
    badges: badges
      .filter((b) => !(forStudentSelf && b.rescinded))
      .map((b): ProfileBadge => {
        const rule = ruleSetVersion(b.rule_version).badges.find((r) => r.code === b.code);
        const entry: ProfileBadge = {
          code: b.code,
          nameAr: rule ? inGender(rule.nameAr, gender) : b.code,
          descriptionAr: rule ? inGender(rule.descriptionAr, gender) : '',
          awardedAt: new Date(b.awarded_at).toISOString(),
        };
        if (!forStudentSelf) {
          entry.studentBadgeId = Number(b.id);
          entry.status = b.rescinded ? 'rescinded' : 'active';
        }
        return entry;
      }),
  };
}
