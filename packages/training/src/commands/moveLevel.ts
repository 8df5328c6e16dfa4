import type { Sql, UnitOfWork } from '@qiraa/db';
import { deterministicEventId, type EventStore } from '@qiraa/eventstore';
import { recordMasteryEvents } from '@qiraa/gamification';
import type { PracticeAnswerRecorded } from '../engine/dayEvents';
import { decideLevelMove } from '../engine/levelMove';
import { TRAINING_LEVEL_MOVED, type TrainingLevelMoved, type TrainingLevelNumber } from '../events';
import type { TrainingRules } from '../rules/trainingRules';
import { appendLevelEvents } from './levelStream';

/**
 * After a counted answer (already projected in this transaction): reads the counted answers given at the
 * answer's level and applies TLM-01/TLM-02. A move is `TrainingLevelMoved` on `traininglevel-<studentId>`; its
 * id is derived from the level and the last answer it read, so it happens once. A move up records the
 * `scaffold_tier_step_up` mastery event (the training level is the scaffold tier, docs/literacy-core.md) with
 * the move id as engine event id, in the same transaction. Nothing happens when the level moved since the
 * answer's day was planned (the answer belongs to a level that is no longer current).
 */
export async function moveLevelAfter(
  deps: { sql: Sql; store: EventStore },
  uow: UnitOfWork,
  rules: TrainingRules,
  answer: PracticeAnswerRecorded,
  academicYear: string,
  organizationId: string | null,
): Promise<TrainingLevelMoved | null> {
  const sql = uow.sql;
  const [[row], answers] = await Promise.all([
    sql<{ level: number; level_id: string; measure_code: string | null }[]>`
      select level, level_id, measure_code from trn_levels
      where student_id = ${answer.studentId} and academic_year = ${academicYear} and skill_id = ${answer.skillId}`,
    sql<{ answer_id: string; correct: boolean; school_day: string }[]>`
      select answer_id, correct, school_day::text from trn_answers
      where student_id = ${answer.studentId} and level_id = ${answer.levelId} and counted
      order by answered_at, seq`,
  ]);
  if (!row || row.level_id !== answer.levelId) return null;
  const decision = decideLevelMove(
    rules,
    row.level,
    answers.map((a) => ({ answerId: a.answer_id, correct: a.correct, schoolDay: a.school_day })),
  );
  if (!decision.direction) return null;
  const moveId = deterministicEventId('training-level-move', answer.studentId, answer.levelId, answer.answerId);
  const data: TrainingLevelMoved = {
    moveId,
    studentId: answer.studentId,
    organizationId,
    skillId: answer.skillId,
    measureCode: row.measure_code,
    fromLevel: row.level as TrainingLevelNumber,
    toLevel: (row.level + (decision.direction === 'up' ? 1 : -1)) as TrainingLevelNumber,
    direction: decision.direction,
    ruleId: decision.ruleId,
    ruleVersion: rules.version,
    evidenceAnswerIds: decision.evidenceAnswerIds,
    since: answer.schoolDay,
    at: answer.answeredAt,
    academicYear,
  };
  await appendLevelEvents(deps.store, uow, answer.studentId, [
    { eventId: moveId, type: TRAINING_LEVEL_MOVED, data, metadata: { organizationId } },
  ]);
  if (data.direction === 'up') {
    await recordMasteryEvents(
      deps,
      [
        {
          engineEventId: moveId,
          studentId: answer.studentId,
          sourceKind: 'scaffold_tier_step_up',
          skillId: data.skillId,
          measureCode: data.measureCode,
          schoolDay: answer.schoolDay,
          occurredAt: answer.answeredAt,
          sessionId: answer.dayId,
        },
      ],
      { uow },
    );
  }
  return data;
}
