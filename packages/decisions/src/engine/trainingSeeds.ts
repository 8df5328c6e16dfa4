import type { MeasureEvidence, ScreeningWindow, SittingEvidence, StudentEvidence } from '@qiraa/assessment';
import type { RuleSet, TrainingLevelNumber } from '../rules/ruleSet';
import type { SkillStatusDecision } from './skillStatusTypes';

const WINDOW_ORDER: Record<ScreeningWindow, number> = { BOY: 0, MOY: 1, EOY: 2 };

/** A training-level seed is decided per student, academic year, window and skill (catalog `content_skills`). */
export interface TrainingSeedKey {
  academicYear: string;
  window: ScreeningWindow;
  skillId: string;
}

/** Why a skill of a window has no seed (closed codes): its sub-skills are held, or no measure of it is complete. */
export const SEED_HOLD_REASONS = ['skill_held', 'no_complete_measure'] as const;
export type SeedHoldReason = (typeof SEED_HOLD_REASONS)[number];

/** TLS-01 fired: the skill's training starts at `level`. */
export interface SeedDecision extends TrainingSeedKey {
  kind: 'seed';
  ruleId: string;
  measureCode: string;
  /** The sitting whose measure result seeds the level. */
  sessionId: string;
  /** The measure's level (1-4, from the cut version the sitting pinned) and the training level it starts. */
  measureLevel: 1 | 2 | 3 | 4;
  level: TrainingLevelNumber;
  cutVersion: string | null;
  /** The measure was read with a cut table still being normed. */
  provisional: boolean;
  /** The sitting's start, the measure's answers and the sitting's end, sorted. */
  evidenceEventIds: string[];
  /** The skill-status decisions of the sub-skills the measure covers (all decided: none held), sorted. */
  statusDecisionIds: string[];
}

/** TLS-08 or TLS-09 fired: no seed for the key (a standing seed of it is retracted). */
export interface SeedHold extends TrainingSeedKey {
  kind: 'hold';
  ruleId: string;
  reason: SeedHoldReason;
  /** The measure that would have seeded (TLS-08) or the latest one that measured the skill (TLS-09). */
  measureCode: string | null;
  evidenceEventIds: string[];
  statusDecisionIds: string[];
}

export type SeedOutcome = SeedDecision | SeedHold;

export const seedKeyOf = (k: TrainingSeedKey) => `${k.academicYear}|${k.window}|${k.skillId}`;

interface Measured {
  sitting: SittingEvidence;
  measure: MeasureEvidence;
}

/**
 * The training-level seed of every skill a live (ended, non-voided) digital sitting measured, per window. Pure
 * and deterministic: the same evidence, skill-status decisions and rule set give the same outcomes in the same
 * order. `decisions` are the student's current skill-status decisions (with their ids); `skillOfMeasure` maps a
 * measure code to its skill (catalog `content_measures.skill_id`); a measure it does not know seeds nothing.
 *
 * - TLS-09: no sitting of the window completed a measure of the skill with a level (stopped, cut short by the
 *   window's close, or no cut table): nothing to start from.
 * - TLS-08: the latest complete measure exists, but a sub-skill its questions cover is `do_not_decide_yet` with
 *   a reason the rule set halts on: a level would contradict the status the teacher reads.
 * - TLS-01: otherwise the latest complete measure's level starts the skill's training (the rule set's mapping).
 */
export function decideTrainingSeeds(
  evidence: Pick<StudentEvidence, 'sittings'>,
  decisions: readonly { decision: SkillStatusDecision; decisionId: string }[],
  rules: RuleSet,
  skillOfMeasure: ReadonlyMap<string, string>,
): SeedOutcome[] {
  const keys = new Map<string, { key: TrainingSeedKey; measured: Measured[] }>();
  for (const sitting of evidence.sittings) {
    for (const measure of sitting.measures) {
      const skillId = skillOfMeasure.get(measure.measureCode);
      if (!skillId) continue;
      const order = `${sitting.academicYear}|${WINDOW_ORDER[sitting.window]}|${skillId}`;
      let entry = keys.get(order);
      if (!entry) {
        entry = { key: { academicYear: sitting.academicYear, window: sitting.window, skillId }, measured: [] };
        keys.set(order, entry);
      }
      entry.measured.push({ sitting, measure });
    }
  }
  const decisionOf = new Map(decisions.map((d) => [`${statusKey(d.decision)}`, d]));
  return [...keys.keys()].sort().map((order) => {
    const { key, measured } = keys.get(order) as { key: TrainingSeedKey; measured: Measured[] };
    // The newest result wins: a re-diagnostic after the window's sitting is the child's state now.
    measured.sort(
      (a, b) =>
        a.sitting.startedAt.localeCompare(b.sitting.startedAt) ||
        a.sitting.attemptId.localeCompare(b.sitting.attemptId),
    );
    const chosen = measured.filter((m) => m.measure.complete && m.measure.level !== null).at(-1);
    if (!chosen) {
      const last = measured.at(-1) as Measured;
      return {
        ...key,
        kind: 'hold',
        ruleId: rules.trainingSeeds.noCompleteMeasure.id,
        reason: 'no_complete_measure',
        measureCode: last.measure.measureCode,
        evidenceEventIds: sorted(measured.flatMap((m) => [m.sitting.startedEventId, m.sitting.endedEventId])),
        statusDecisionIds: [],
      };
    }
    const { sitting, measure } = chosen;
    const questions = sitting.questions.filter((q) => q.measureCode === measure.measureCode);
    const subSkills = [...new Set(questions.map((q) => q.subSkillId))];
    const statuses = subSkills.map((subSkillId) =>
      decisionOf.get(statusKey({ academicYear: key.academicYear, window: key.window, subSkillId })),
    );
    const statusDecisionIds = sorted(statuses.flatMap((s) => (s ? [s.decisionId] : [])));
    const evidenceEventIds = sorted([
      sitting.startedEventId,
      sitting.endedEventId,
      ...questions.flatMap((q) => (q.eventId ? [q.eventId] : [])),
    ]);
    const { haltOn } = rules.trainingSeeds.skillHeld;
    // A covered sub-skill without a decision cannot happen (the plan covers it); were it so, it is held.
    const held = statuses.some(
      (s) => !s || (s.decision.doNotDecideYet && haltOn.has(s.decision.holdReason ?? 'not_assessed')),
    );
    if (held) {
      return {
        ...key,
        kind: 'hold',
        ruleId: rules.trainingSeeds.skillHeld.id,
        reason: 'skill_held',
        measureCode: measure.measureCode,
        evidenceEventIds,
        statusDecisionIds,
      };
    }
    const measureLevel = measure.level as 1 | 2 | 3 | 4;
    return {
      ...key,
      kind: 'seed',
      ruleId: rules.trainingSeeds.seed.id,
      measureCode: measure.measureCode,
      sessionId: sitting.attemptId,
      measureLevel,
      level: rules.trainingSeeds.seed.trainingLevelOf[measureLevel],
      cutVersion: measure.cutVersion,
      provisional: measure.provisional,
      evidenceEventIds,
      statusDecisionIds,
    };
  });
}

const statusKey = (k: { academicYear: string; window: string; subSkillId: string }) =>
  `${k.academicYear}|${k.window}|${k.subSkillId}`;

const sorted = (ids: string[]) => [...new Set(ids)].sort();
