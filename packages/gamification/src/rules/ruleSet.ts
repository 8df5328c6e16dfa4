import type { Gendered } from '@qiraa/identity';
import type { MasteryEventSourceKind } from '../codes';

/** What a badge rule may look at: counts so far, including the event being evaluated. */
export interface BadgeFacts {
  masteryCount: number;
  bySourceKind: Readonly<Record<MasteryEventSourceKind, number>>;
  streakCurrent: number;
}

export interface BadgeRule {
  code: string;
  /** The forms that agree with the child (the profile serves the one of the student's gender). */
  nameAr: Gendered;
  /** Growth language: what the child did, never what they lack; addressed to the child, so gendered too. */
  descriptionAr: Gendered;
  /** The source kinds whose mastery events this rule counts (at least one). */
  cites: readonly MasteryEventSourceKind[];
  earned(facts: BadgeFacts): boolean;
}

/** A versioned rule set. Every XP credit and badge pins the version that decided it; versions never change. */
export interface RuleSet {
  version: number;
  xpBySourceKind: Readonly<Record<MasteryEventSourceKind, number>>;
  /**
   * Most XP one session may credit. The cap counts everything the session credited so far (mastery credits
   * and badge bonuses); whether it also cuts a badge's bonus is `badgeBonusCapped`.
   */
  sessionXpCap: number;
  badgeBonusXp: number;
  /**
   * v1: true, a badge earned once the session's cap is used up brings no bonus (so its rescind reversed 0).
   * v2: false, a badge's bonus is paid in full whatever the cap left, so a rescind always takes XP back
   * (spec: Rescind response `reversalDelta`, a negative integer). docs/gamification.md, "Rule set v2".
   */
  badgeBonusCapped: boolean;
  /** In award priority order; at most one badge per evaluation. */
  badges: readonly BadgeRule[];
  /** Mastery-event counts at which tiers 2, 3, 4 and 5 are reached. */
  avatarTierThresholds: readonly [number, number, number, number];
  streakGraceSchoolDays: number;
  streakMilestones: readonly number[];
}

export function avatarTierFor(masteryCount: number, rules: Pick<RuleSet, 'avatarTierThresholds'>): number {
  return 1 + rules.avatarTierThresholds.filter((threshold) => masteryCount >= threshold).length;
}
