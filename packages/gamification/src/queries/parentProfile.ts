import type { Sql } from '@qiraa/db';
import { loadLanguageSafety } from '@qiraa/language-safety';
import { gamificationProfile } from './profile';

/**
 * What a parent reads of the gamification profile (docs/parent-portal.md, "The gamification profile"): no
 * number, no badge id, no code. The tier and the streak become phrases, XP is left out, a badge is its name,
 * description and date (a rescinded one is not shown). Every string through the parent tier of the language
 * filter (a rewrite is applied); an unavailable rule set is 503, as on every parent route.
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

export async function parentGamificationProfile(sql: Sql, studentId: number): Promise<ParentGamificationProfile> {
  const filter = await loadLanguageSafety(sql);
  const safe = (text: string) => {
    const result = filter.check(text, 'parent');
    return result.kind === 'pass' ? text : result.rewritten;
  };
  const profile = await gamificationProfile(sql, studentId, false);
  return {
    studentId,
    journeyAr: safe(JOURNEY_PHRASES[profile.avatarTier] ?? JOURNEY_PHRASES[1]!),
    streakAr: safe(streakPhrase(profile.streak.current)),
    badges: profile.badges
      .filter((b) => b.status !== 'rescinded')
      .map((b) => ({ nameAr: safe(b.nameAr), descriptionAr: safe(b.descriptionAr), awardedAt: b.awardedAt })),
  };
}
