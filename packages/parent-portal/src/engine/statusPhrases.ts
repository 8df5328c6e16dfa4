import { STATUS_TOKENS, type StatusToken } from '@qiraa/decisions';

/**
 * The four `statusLabel` phrases (docs/parent-portal.md, "The four phrases"), one per skill-status token,
 * weakest first. Noun phrases about the skill, never about the child, so they need no gender agreement; each
 * names what is there (a start, growth, confidence, mastery) rather than what is missing.
 */
export const STATUS_PHRASES: Readonly<Record<StatusToken, string>> = {
  beginning: 'خطوات أولى واعدة',
  developing: 'نموّ مستمر',
  on_track: 'تقدّم واثق',
  strong: 'إتقان يبعث على الفخر',
};

export const statusPhraseOf = (token: StatusToken): string => STATUS_PHRASES[token];

/** A screening measure's level (1-4, from its cut table) read on the same four steps as the status tokens. */
export const tokenOfLevel = (level: 1 | 2 | 3 | 4): StatusToken => STATUS_TOKENS[level - 1]!;

/** The lower median of status ranks (the cautious middle: a parent hears no more than the evidence holds). */
export function lowerMedianRank(ranks: readonly number[]): number | null {
  if (ranks.length === 0) return null;
  const sorted = [...ranks].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}
