import type { Sql } from '@qiraa/db';
import { loadLanguageSafety } from '@qiraa/language-safety';
import type { LeaderboardView } from './leaderboardEntries';

export interface LeaderboardFraming {
  topLabelAr: string;
  bottomLabelAr: string;
}

/**
 * The labels shown at the two ends of a board, per view: growth language only (no ranks, no best or worst,
 * no deficit words), and about the window whatever its length ("in this period", not "this week").
 */
export const LEADERBOARD_FRAMING: Readonly<Record<LeaderboardView, LeaderboardFraming>> = {
  // "Many learning steps in this period" / "Every step counts"
  by_mastery_events: { topLabelAr: 'خطوات تعلّم كثيرة في هذه الفترة', bottomLabelAr: 'كل خطوة تُحسب' },
  // "Moves to higher levels in this period" / "The next level is on its way"
  by_band_progression: {
    topLabelAr: 'انتقالات إلى مستويات أعلى في هذه الفترة',
    bottomLabelAr: 'المستوى التالي في الطريق',
  },
};

/**
 * The framing a board shows: the labels as the language-safety filter (general tier) answers them, so a
 * rule added later rewrites them without a code change. No rule set → 503 LANGUAGE_SAFETY_UNAVAILABLE.
 */
export async function filteredFraming(sql: Sql, view: LeaderboardView): Promise<LeaderboardFraming> {
  const filter = await loadLanguageSafety(sql);
  const safe = (text: string) => {
    const result = filter.check(text, 'general');
    return result.kind === 'pass' ? text : result.rewritten;
  };
  const labels = LEADERBOARD_FRAMING[view];
  return { topLabelAr: safe(labels.topLabelAr), bottomLabelAr: safe(labels.bottomLabelAr) };
}
