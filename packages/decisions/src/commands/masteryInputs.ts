import type { Recorded } from '@qiraa/eventstore';
import type { MasteryEventInput } from '@qiraa/gamification';
import { BAND_PROGRESSION_DECIDED, type DecisionEvent, SKILL_STATUS_DECIDED } from '../events';
import { TREND_DECIDED } from '../events/monitoringEvents';
import { PROFILE_RESOLVED } from '../events/profileEvents';
import type { RuleSet } from '../rules/ruleSet';
import { trendMasteryInputOf } from './monitoringStep';
import { profileMasteryInputOf } from './profileStep';

/**
 * A decision's XP is counted against one session per student and window (gamification caps XP per session),
 * so a screening window's decisions share the cap as one sitting's steps would.
 */
export const masterySessionOf = (d: { academicYear: string; window: string }) =>
  `decisions:${d.academicYear}:${d.window}`;

/** The decision event types that may carry a mastery credit (MER-01..05): what the rewards reaction handles. */
export const CREDITING_DECISION_TYPES = [
  SKILL_STATUS_DECIDED,
  BAND_PROGRESSION_DECIDED,
  TREND_DECIDED,
  PROFILE_RESOLVED,
] as const;

/**
 * The mastery event one decision earned, or none (safe stops and statuses that did not rise fire none). Its
 * engine event id is the decision's own id, so a recompute or a re-delivery is a duplicate, never a second
 * credit; its causation is the decision event.
 */
export function masteryInputOf(e: Recorded<DecisionEvent>, rules: RuleSet): MasteryEventInput | null {
  if (e.type === SKILL_STATUS_DECIDED) {
    const d = e.data;
    if (!d.mastery || d.doNotDecideYet) return null;
    return {
      engineEventId: d.decisionId,
      causationEventId: e.eventId,
      studentId: d.studentId,
      sourceKind: d.mastery.sourceKind,
      skillId: d.subSkillId,
      occurredAt: d.decidedAt,
      sessionId: masterySessionOf(d),
    };
  }
  if (e.type === BAND_PROGRESSION_DECIDED) {
    const d = e.data;
    return {
      engineEventId: d.bandDecisionId,
      causationEventId: e.eventId,
      studentId: d.studentId,
      sourceKind: d.sourceKind,
      skillId: rules.oralCellSubSkills[d.cell] ?? null,
      measureCode: d.cell,
      occurredAt: d.decidedAt,
      sessionId: masterySessionOf(d),
    };
  }
  return trendMasteryInputOf(e, rules) ?? profileMasteryInputOf(e);
}
