/**
 * The macro-domain trajectory categories (docs/parent-portal.md, "Trajectory labels"): how a domain moved
 * between the two latest screening windows of the academic year with a decided status. Closed codes inside,
 * Arabic labels out.
 */
export const TRAJECTORIES = ['first_look', 'growing', 'steady', 'more_practice'] as const;
export type Trajectory = (typeof TRAJECTORIES)[number];

export const TRAJECTORY_LABELS: Readonly<Record<Trajectory, string>> = {
  first_look: 'بداية رحلة هذا العام',
  growing: 'في تقدّم ملحوظ',
  steady: 'ثبات مع مواصلة التعلّم',
  more_practice: 'وقت مناسب لمزيد من التدريب معًا',
};

/** From the domain's rank per window, oldest first (null: nothing decided in that window). */
export function trajectoryOf(ranks: readonly (number | null)[]): Trajectory | null {
  const decided = ranks.filter((r): r is number => r !== null);
  if (decided.length === 0) return null;
  if (decided.length === 1) return 'first_look';
  const [previous, latest] = decided.slice(-2) as [number, number];
  return latest > previous ? 'growing' : latest === previous ? 'steady' : 'more_practice';
}
