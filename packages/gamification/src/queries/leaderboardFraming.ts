import type { Sql } from '@qiraa/db';
import { loadLanguageSafety, servedRewrite } from '@qiraa/language-safety';
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
  const labels = LEADERBOARD_FRAMING[view];
  // Remembered per rule-set version, like every served text: the labels are checked once per version and process.
  return {
    topLabelAr: servedRewrite(filter, labels.topLabelAr),
    bottomLabelAr: servedRewrite(filter, labels.bottomLabelAr),
  };
}
