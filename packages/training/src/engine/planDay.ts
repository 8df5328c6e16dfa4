import type { TrainingLevelNumber } from '../events';
import type { TrainingRules } from '../rules/trainingRules';
import type { PlannedExercise, TrainingDayOpened } from './dayEvents';

export interface TargetPool {
  skillId: string;
  level: TrainingLevelNumber;
  levelId: string;
  measureCode: string | null;
  /** Operational items of the skill at the level the child may get, least practised first. */
  itemIds: string[];
}

/**
 * A day's plan: up to `exercises` (3) exercises of up to `questionsPerExercise` (4) distinct items, the targets
 * taken in turn (the first `targetsPerDay` skills of `pools`, in the order given), never more than a level can
 * serve: an exercise takes only items not yet planned that day and a target out of items is skipped. The
 * closing question comes from the first target, an unplanned item when one is left.
 */
export function planDay(
  rules: TrainingRules,
  pools: readonly TargetPool[],
): Pick<TrainingDayOpened, 'exercises' | 'exit' | 'plannedExercises' | 'questionsPerExercise'> {
  const targets = pools.filter((p) => p.itemIds.length > 0).slice(0, rules.day.targetsPerDay);
  const used = new Map<string, number>(targets.map((t) => [t.skillId, 0]));
  const exercises: PlannedExercise[] = [];
  for (let turn = 0; exercises.length < rules.day.exercises && turn < rules.day.exercises * targets.length; turn++) {
    const t = targets[turn % targets.length]!;
    const from = used.get(t.skillId)!;
    if (from >= t.itemIds.length) continue;
    const itemIds = t.itemIds.slice(from, from + rules.day.questionsPerExercise);
    used.set(t.skillId, from + itemIds.length);
    exercises.push({ skillId: t.skillId, level: t.level, levelId: t.levelId, measureCode: t.measureCode, itemIds });
  }
  const first = targets[0];
  const exit =
    first && rules.day.exitQuestions > 0
      ? {
          skillId: first.skillId,
          level: first.level,
          levelId: first.levelId,
          itemId: first.itemIds[used.get(first.skillId)!] ?? first.itemIds[0]!,
        }
      : null;
  return {
    exercises,
    exit,
    plannedExercises: exercises.length,
    questionsPerExercise: Math.max(0, ...exercises.map((x) => x.itemIds.length)),
  };
}
