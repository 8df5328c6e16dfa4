import type { ScreeningWindow } from '@qiraa/assessment';
import { type MasteryRuleKind, type RuleSet, rankOf, type StatusToken } from '../rules/ruleSet';

/** An earlier skill-status decision of the student's stream (stream order), as the mastery rules read it. */
export interface PriorStatus {
  academicYear: string;
  window: ScreeningWindow;
  subSkillId: string;
  status: StatusToken | null;
}

/** Which mastery rule a decision fired: the source kind it earns and the step it took. */
export interface MasteryCredit {
  ruleId: string;
  sourceKind: MasteryRuleKind;
  from: StatusToken;
  to: StatusToken;
}

/** A read whose band rose over the previous banded read of the same cell (MER-03). */
export interface BandCredit extends MasteryCredit {
  cell: string;
  academicYear: string;
  window: ScreeningWindow;
  readAttemptId: string;
  previousAttemptId: string;
  at: string;
}

const WINDOW_ORDER: Record<ScreeningWindow, number> = { BOY: 0, MOY: 1, EOY: 2 };
/** Sorts windows in time: academic years (`YYYY-YYYY`) as strings, then BOY, MOY, EOY. */
export const windowRank = (d: { academicYear: string; window: ScreeningWindow }) =>
  `${d.academicYear}|${WINDOW_ORDER[d.window]}`;

const highest = (tokens: readonly StatusToken[]) => tokens.reduce((best, t) => (rankOf(t) > rankOf(best) ? t : best));

/**
 * The mastery rule a new skill-status decision fires, given the decisions before it (stream order), or null.
 * Never for a safe stop or a status that does not rise.
 * - MER-02 (within the window): the key already had a status in this window; the new one must beat the
 *   highest of them (not only the one it supersedes), so a status lost to a void and regained earns nothing.
 * - MER-01 (between windows): the first status of the key in this window, against the standing (latest)
 *   status of the most recent earlier window that has one. The first status ever earns nothing.
 */
export function statusMasteryOf(
  decision: PriorStatus & { doNotDecideYet: boolean },
  prior: readonly PriorStatus[],
  rules: RuleSet,
): MasteryCredit | null {
  const to = decision.status;
  if (decision.doNotDecideYet || to === null) return null;
  const here = windowRank(decision);
  const mine = prior.filter((p) => p.subSkillId === decision.subSkillId);
  const sameWindow = mine.filter((p) => windowRank(p) === here).flatMap((p) => (p.status ? [p.status] : []));
  if (sameWindow.length > 0) {
    const from = highest(sameWindow);
    const rule = rules.mastery.withinWindow;
    return rankOf(to) - rankOf(from) >= rule.minRankGain
      ? { ruleId: rule.id, sourceKind: rule.sourceKind, from, to }
      : null;
  }
  const standing = new Map<string, StatusToken | null>();
  for (const p of mine) if (windowRank(p) < here) standing.set(windowRank(p), p.status);
  const earlier = [...standing].filter(([, s]) => s !== null).sort(([a], [b]) => (a < b ? 1 : -1));
  const from = earlier[0]?.[1];
  if (!from) return null;
  const rule = rules.mastery.betweenWindows;
  return rankOf(to) - rankOf(from) >= rule.minRankGain
    ? { ruleId: rule.id, sourceKind: rule.sourceKind, from, to }
    : null;
}

/**
 * MER-03: every read (oral reading or word-list read, voided ones are not evidence) whose band is above the
 * band of the previous banded read of the same cell, in time order, across windows. A read earns at most
 * once: its band decision's id is the read's (a void of the previous read changes what it is compared with,
 * not whether it already earned).
 */
export function bandProgressionsOf(
  reads: readonly {
    attemptId: string;
    cell: string;
    at: string;
    band: StatusToken | null;
    academicYear: string;
    window: ScreeningWindow;
  }[],
  rules: RuleSet,
): BandCredit[] {
  const rule = rules.mastery.band;
  const ordered = [...reads].sort((a, b) =>
    a.at === b.at ? (a.attemptId < b.attemptId ? -1 : 1) : Date.parse(a.at) - Date.parse(b.at),
  );
  const previous = new Map<string, { attemptId: string; band: StatusToken }>();
  const credits: BandCredit[] = [];
  for (const read of ordered) {
    if (read.band === null) continue;
    const before = previous.get(read.cell);
    if (before && rankOf(read.band) - rankOf(before.band) >= rule.minRankGain) {
      credits.push({
        ruleId: rule.id,
        sourceKind: rule.sourceKind,
        from: before.band,
        to: read.band,
        cell: read.cell,
        academicYear: read.academicYear,
        window: read.window,
        readAttemptId: read.attemptId,
        previousAttemptId: before.attemptId,
        at: read.at,
      });
    }
    previous.set(read.cell, { attemptId: read.attemptId, band: read.band });
  }
  return credits;
}
