import { type Decider, handleCommand } from '@qiraa/command-kit';
import { inTransaction } from '@qiraa/db';
import { type NewEvent, randomEventId } from '@qiraa/eventstore';
import { trainingCommands } from '../commandContext';
import type { TrainingDayOpened } from '../engine/dayEvents';
import type { DayFold } from '../engine/foldDay';
import { planDay, type TargetPool } from '../engine/planDay';
import { streams, TRAINING_DAY_OPENED } from '../events';
import type { Learner } from '../queries/learner';
import { targetItemsOf } from '../queries/trainingPool';
import type { TrainingRules } from '../rules/trainingRules';
import { dayEvolution, type TrainingDeps } from './dayStream';
import { ensureLevels } from './ensureLevels';

export interface OpenDay {
  readonly dayId: string;
  readonly learner: Learner;
  readonly rules: TrainingRules;
  readonly schoolDay: string;
  readonly now: Date;
  /** What each level can serve, the sent skill's first (planned first, so it is in the day and served first). */
  readonly pools: readonly TargetPool[];
}

/** Plans the day from the pools and opens it; nothing when no level can serve an item. */
export const openDayDecider: Decider<OpenDay, NewEvent<TrainingDayOpened>, DayFold | null> = {
  ...dayEvolution,
  decide({ dayId, learner, rules, schoolDay, now, pools }) {
    const plan = planDay(rules, pools);
    if (plan.exercises.length === 0) return [];
    const data: TrainingDayOpened = {
      dayId,
      studentId: learner.studentId,
      organizationId: learner.organizationId,
      schoolDay,
      timeZone: learner.timeZone,
      academicYear: learner.academicYear,
      leveled: true,
      ruleVersion: rules.version,
      ...plan,
      openedAt: now.toISOString(),
    };
    return [{ type: TRAINING_DAY_OPENED, data, metadata: { organizationId: learner.organizationId } }];
  },
};

/**
 * Opens today's training day: starts (or rebaselines) the child's levels, plans the exercises from the items
 * each level can serve and appends `TrainingDayOpened`, in one unit of work (the level and day commands join
 * it). Null when no level can serve an item (nothing is planned and no day is written; the levels started
 * stay). A parallel opening loses on the one-open-day index and the caller retries (it then finds the winner's
 * day).
 */
export async function openDay(
  deps: TrainingDeps,
  learner: Learner,
  rules: TrainingRules,
  now: Date,
  schoolDay: string,
  /** A teacher's send in its window: its skill is planned first (so it is in the day and served first). */
  preferSkillId: string | null = null,
): Promise<DayFold | null> {
  return inTransaction(deps.sql, async (uow) => {
    const levels = await ensureLevels(deps, uow, learner, rules, now, schoolDay);
    const items = await targetItemsOf(uow.sql, learner, levels);
    const pools = levels.map((l) => ({
      skillId: l.skillId,
      level: l.level,
      levelId: l.levelId,
      measureCode: l.measureCode,
      itemIds: items.get(`${l.skillId}|${l.level}`) ?? [],
    }));
    const sent = pools.filter((p) => p.skillId === preferSkillId);
    const dayId = randomEventId();
    const result = await handleCommand(deps, {
      context: trainingCommands,
      streamId: streams.day(dayId),
      decider: openDayDecider,
      command: {
        dayId,
        learner,
        rules,
        schoolDay,
        now,
        pools: [...sent, ...pools.filter((p) => p.skillId !== preferSkillId)],
      },
      uow,
      // A new stream (a fresh id): nothing to read.
      load: { name: 'a new day', inTransaction: true, load: async () => ({ state: null, version: 'no_stream' }) },
    });
    return result.kind === 'appended' ? result.state : null;
  });
}
