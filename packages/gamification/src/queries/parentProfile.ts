import type { Sql } from '@qiraa/db';
import { type LanguageSafetyFilter, servedRewrite } from '@qiraa/language-safety';
import { gamificationProfile } from './profile';
import { type Served, servedBadges } from './servedBadges';

/**
 * What a parent reads of the gamification profile (docs/parent-portal.md, "The gamification profile"): no
 * number, no badge id, no code. The tier and the streak become phrases, XP is left out, a badge is its name,
 * description and date (a rescinded one is not shown). Every string through the parent tier of the rule set in
 * force, remembered per version like every served text (a rewrite is applied); the route loads the filter first,
 * so an unavailable rule set is 503, as on every parent route.
 */
export interface ParentGamificationProfile {
  studentId: number;
  journeyAr: string;
  streakAr: string;
  badges: Array<{ nameAr: string; descriptionAr: string; awardedAt: string }>;
}

/** By avatar tier (1 to 5): how far the reading journey has come, in growth language. */
export const JOURNEY_PHRASES: Readonly<Record<number, string>> = {
  1: 'رحلة القراءة في بدايتها الجميلة',
  2: 'رحلة القراءة تتقدّم خطوة بعد خطوة',
  3: 'رحلة القراءة تنمو بثبات',
  4: 'رحلة القراءة تزدهر',
  5: 'رحلة القراءة في أبهى مراحلها',
};

/** By the current streak of learning days. */
export function streakPhrase(current: number): string {
  if (current === 0) return 'كلّ يوم تعلّم جديد بداية لسلسلة جديدة';
  if (current < 5) return 'أيام تعلّم متتالية في بدايتها';
  if (current < 10) return 'سلسلة ثابتة من أيام التعلّم المتتالية';
  return 'سلسلة طويلة من أيام التعلّم المتتالية';
}

export async function parentGamificationProfile(
  sql: Sql,
  studentId: number,
  filter: LanguageSafetyFilter,
): Promise<Served<ParentGamificationProfile>> {
  const rewritten: string[] = [];
  const safe = (text: string, path: string) => {
    const out = servedRewrite(filter, text, 'parent');
    if (out !== text) rewritten.push(path);
    return out;
  };
  const profile = await gamificationProfile(sql, studentId, false);
  const badges = servedBadges(
    profile.badges
      .filter((b) => b.status !== 'rescinded')
      .map((b) => ({ nameAr: b.nameAr, descriptionAr: b.descriptionAr, awardedAt: b.awardedAt })),
    filter,
    'parent',
  );
  return {
    value: {
      studentId,
      journeyAr: safe(JOURNEY_PHRASES[profile.avatarTier] ?? JOURNEY_PHRASES[1]!, '/journeyAr'),
      streakAr: safe(streakPhrase(profile.streak.current), '/streakAr'),
      badges: badges.value,
    },
    rewritten: [...rewritten, ...badges.rewritten],
  };
}
