import type { LeaderboardView } from './queries/leaderboardEntries';

export interface LeaderboardFraming {
  topLabelAr: string;
  bottomLabelAr: string;
}

/**
 * The labels shown at the two ends of a board, per view: growth language only (no ranks, no best or worst,
 * no deficit words), and about the window whatever its length ("in this period", not "this week").
 */
// These strings must pass the language-safety filter once it exists (a later issue).
export const LEADERBOARD_FRAMING: Readonly<Record<LeaderboardView, LeaderboardFraming>> = {
  // "Many learning steps in this period" / "Every step counts"
  by_mastery_events: { topLabelAr: 'خطوات تعلّم كثيرة في هذه الفترة', bottomLabelAr: 'كل خطوة تُحسب' },
  // "Moves to higher levels in this period" / "The next level is on its way"
  by_band_progression: {
    topLabelAr: 'انتقالات إلى مستويات أعلى في هذه الفترة',
    bottomLabelAr: 'المستوى التالي في الطريق',
  },
};
