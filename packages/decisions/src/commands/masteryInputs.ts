import type { RecordedEvent } from '@qiraa/eventstore';
import type { MasteryEventInput } from '@qiraa/gamification';
import {
  BAND_PROGRESSION_DECIDED,
  type BandProgressionDecided,
  SKILL_STATUS_DECIDED,
  type SkillStatusDecided,
} from '../events';
import type { RuleSet } from '../rules/ruleSet';

/**
 * A decision's XP is counted against one session per student and window (gamification caps XP per session),
 * so a screening window's decisions share the cap as one sitting's steps would.
 */
export const masterySessionOf = (d: { academicYear: string; window: string }) =>
  `decisions:${d.academicYear}:${d.window}`;

/**
 * The mastery events the appended decisions earned: one per decision that fired a mastery rule, its engine
 * event id the decision's own id (so a recompute or a re-delivery is a duplicate, never a second credit).
 * Safe stops and statuses that did not rise fired none.
 */
export function masteryInputsOf(
  studentId: number,
  appended: readonly RecordedEvent[],
  rules: RuleSet,
): MasteryEventInput[] {
  const inputs: MasteryEventInput[] = [];
  for (const e of appended) {
    if (e.type === SKILL_STATUS_DECIDED) {
      const d = e.data as SkillStatusDecided;
      if (!d.mastery || d.doNotDecideYet) continue;
      inputs.push({
        engineEventId: d.decisionId,
        studentId,
        sourceKind: d.mastery.sourceKind,
        skillId: d.subSkillId,
        occurredAt: d.decidedAt,
        sessionId: masterySessionOf(d),
      });
    } else if (e.type === BAND_PROGRESSION_DECIDED) {
      const d = e.data as BandProgressionDecided;
      inputs.push({
        engineEventId: d.bandDecisionId,
        studentId,
        sourceKind: d.sourceKind,
        skillId: rules.oralCellSubSkills[d.cell] ?? null,
        measureCode: d.cell,
        occurredAt: d.decidedAt,
        sessionId: masterySessionOf(d),
      });
    }
  }
  return inputs;
}
