import { inTransaction } from '@qiraa/db';
import { deterministicEventId } from '@qiraa/eventstore';
import { appendDayEvents, type TrainingDeps } from '../commands/dayStream';
import type { PlannedExercise } from '../engine/dayEvents';
import type { DayFold } from '../engine/foldDay';
import { SEND_EXERCISE_ADDED, type SendExerciseAdded, type TrainingLevelNumber } from '../events';
import type { Learner } from '../queries/learner';
import { targetItemsOf } from '../queries/trainingPool';
import type { TrainingRules } from '../rules/trainingRules';

/**
 * A send arriving while the child's day is already open, for a skill the day did not plan: one exercise of the
 * sent skill at the child's level (items not planned that day, least practised first) is added to the day
 * (`SendExerciseAdded`, once per send and day: a deterministic id), and the queue serves it first. Null when
 * the day already has the skill, the child has no level in it, or the level has no item left.
 */
export async function addSendExercise(
  deps: TrainingDeps,
  learner: Learner,
  rules: TrainingRules,
  fold: DayFold,
  send: { sendId: string; skillId: string },
  now: Date,
): Promise<boolean> {
  if (fold.ended || fold.opened.exercises.some((x) => x.skillId === send.skillId)) return false;
  const [level] = await deps.sql<{ level: number; level_id: string; measure_code: string | null }[]>`
    select level, level_id, measure_code from trn_levels
    where student_id = ${learner.studentId} and skill_id = ${send.skillId} and academic_year = ${learner.academicYear}`;
  if (!level) return false;
  const planned = new Set([
    ...fold.opened.exercises.flatMap((x) => x.itemIds),
    ...(fold.opened.exit ? [fold.opened.exit.itemId] : []),
  ]);
  const pool = await targetItemsOf(deps.sql, learner, [{ skillId: send.skillId, level: level.level }]);
  const itemIds = (pool.get(`${send.skillId}|${level.level}`) ?? [])
    .filter((id) => !planned.has(id))
    .slice(0, rules.day.questionsPerExercise);
  if (itemIds.length === 0) return false;
  const exercise: PlannedExercise = {
    skillId: send.skillId,
    level: level.level as TrainingLevelNumber,
    levelId: level.level_id,
    measureCode: level.measure_code,
    itemIds,
  };
  const data: SendExerciseAdded = {
    dayId: fold.opened.dayId,
    studentId: learner.studentId,
    sendId: send.sendId,
    exercise,
    addedAt: now.toISOString(),
  };
  await inTransaction(deps.sql, (uow) =>
    appendDayEvents(deps.store, uow, fold.opened.dayId, fold.version, [
      {
        eventId: deterministicEventId('send-exercise-added', send.sendId, fold.opened.dayId),
        type: SEND_EXERCISE_ADDED,
        data,
        metadata: { organizationId: learner.organizationId },
      },
    ]),
  );
  return true;
}
