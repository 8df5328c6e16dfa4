import { type Decider, handleCommand } from '@qiraa/command-kit';
import { deterministicEventId, type NewEvent } from '@qiraa/eventstore';
import { trainingCommands } from '../commandContext';
import type { PlannedExercise } from '../engine/dayEvents';
import type { DayFold } from '../engine/foldDay';
import { SEND_EXERCISE_ADDED, type SendExerciseAdded, streams, type TrainingLevelNumber } from '../events';
import type { Learner } from '../queries/learner';
import { targetItemsOf } from '../queries/trainingPool';
import type { TrainingRules } from '../rules/trainingRules';
import { dayEvolution, loadDay, type TrainingDeps } from './dayStream';

export interface AddSendExercise {
  readonly learner: Learner;
  readonly rules: TrainingRules;
  readonly send: { readonly sendId: string; readonly skillId: string };
  readonly now: Date;
}

/** The day, and the child's level in the sent skill with the items that level can serve (catalog order). */
export interface SendExerciseState {
  readonly fold: DayFold | null;
  readonly level: { readonly level: number; readonly levelId: string; readonly measureCode: string | null } | null;
  readonly pool: readonly string[];
}

/** Nothing to add: the day is not open, or it plans the sent skill already. */
const hasNoRoom = (fold: DayFold | null, skillId: string) =>
  !fold || fold.ended !== null || fold.opened.exercises.some((x) => x.skillId === skillId);

/**
 * One exercise of the sent skill at the child's level, of items the day did not plan, once per send and day (a
 * deterministic id). Nothing when the day has no room for it, the child has no level in the skill, or the level
 * has no item left.
 */
export const addSendExerciseDecider: Decider<AddSendExercise, NewEvent<SendExerciseAdded>, SendExerciseState> = {
  initialState: () => ({ fold: null, level: null, pool: [] }),
  evolve: (state, event) => ({ ...state, fold: dayEvolution.evolve(state.fold, event) }),
  decide({ learner, rules, send, now }, { fold, level, pool }) {
    if (!fold || hasNoRoom(fold, send.skillId) || !level) return [];
    const planned = new Set([
      ...fold.opened.exercises.flatMap((x) => x.itemIds),
      ...(fold.opened.exit ? [fold.opened.exit.itemId] : []),
    ]);
    const itemIds = pool.filter((id) => !planned.has(id)).slice(0, rules.day.questionsPerExercise);
    if (itemIds.length === 0) return [];
    const exercise: PlannedExercise = {
      skillId: send.skillId,
      level: level.level as TrainingLevelNumber,
      levelId: level.levelId,
      measureCode: level.measureCode,
      itemIds,
    };
    const data: SendExerciseAdded = {
      dayId: fold.opened.dayId,
      studentId: learner.studentId,
      sendId: send.sendId,
      exercise,
      addedAt: now.toISOString(),
    };
    return [
      {
        eventId: deterministicEventId('send-exercise-added', send.sendId, fold.opened.dayId),
        type: SEND_EXERCISE_ADDED,
        data,
        metadata: { organizationId: learner.organizationId },
      },
    ];
  },
};

/**
 * A send arriving while the child's day is already open, for a skill the day did not plan: one exercise of the
 * sent skill is added to the day (`SendExerciseAdded`), and the queue serves it first. False when nothing was
 * added (`addSendExerciseDecider`).
 */
export async function addSendExercise(
  deps: TrainingDeps,
  learner: Learner,
  rules: TrainingRules,
  fold: DayFold,
  send: { sendId: string; skillId: string },
  now: Date,
): Promise<boolean> {
  // Decided before any read: a day that planned the skill (every request of a day with a send) reads nothing more.
  if (hasNoRoom(fold, send.skillId)) return false;
  const dayId = fold.opened.dayId;
  const result = await handleCommand(deps, {
    context: trainingCommands,
    streamId: streams.day(dayId),
    decider: addSendExerciseDecider,
    command: { learner, rules, send, now },
    load: {
      name: 'the day as read (its stream after a conflict), the level in the sent skill and its items',
      inTransaction: false,
      async load(attempt) {
        const day = attempt === 0 ? fold : await loadDay(deps.store, dayId);
        const [level] = await deps.sql<{ level: number; level_id: string; measure_code: string | null }[]>`
          select level, level_id, measure_code from trn_levels
          where student_id = ${learner.studentId} and skill_id = ${send.skillId} and academic_year = ${learner.academicYear}`;
        const pool = level
          ? ((await targetItemsOf(deps.sql, learner, [{ skillId: send.skillId, level: level.level }])).get(
              `${send.skillId}|${level.level}`,
            ) ?? [])
          : [];
        const state: SendExerciseState = {
          fold: day,
          level: level ? { level: level.level, levelId: level.level_id, measureCode: level.measure_code } : null,
          pool,
        };
        return { state, version: day?.version ?? 'no_stream' };
      },
    },
  });
  return result.kind === 'appended';
}
