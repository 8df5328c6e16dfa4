import { type Decider, handleCommand } from '@qiraa/command-kit';
import type { NewEvent } from '@qiraa/eventstore';
import { trainingCommands } from '../commandContext';
import type { DayFold } from '../engine/foldDay';
import { type DayEndReason, streams, TRAINING_DAY_ENDED, type TrainingDayEnded } from '../events';
import { dayEvolution, dayLoader, type TrainingDeps } from './dayStream';

/** The `TrainingDayEnded` event of a day as folded (plus the answers about to be appended with it). */
export function dayEndedEvent(
  fold: DayFold,
  endReason: DayEndReason,
  at: Date,
  extra: { counted: number; correct: number } = { counted: 0, correct: 0 },
): NewEvent<TrainingDayEnded> {
  const o = fold.opened;
  const counted = fold.answers.filter((a) => a.counted);
  const targets = o.exercises.filter((x, i, all) => all.findIndex((y) => y.skillId === x.skillId) === i);
  const data: TrainingDayEnded = {
    dayId: o.dayId,
    studentId: o.studentId,
    organizationId: o.organizationId,
    skillIds: targets.map((t) => t.skillId),
    levels: targets.map((t) => t.level),
    level: targets.length > 0 ? (Math.min(...targets.map((t) => t.level)) as TrainingDayEnded['level']) : 1,
    date: o.schoolDay,
    counted: counted.length + extra.counted,
    correct: counted.filter((a) => a.correct).length + extra.correct,
    endReason,
    at: at.toISOString(),
    academicYear: o.academicYear,
  };
  return { type: TRAINING_DAY_ENDED, data, metadata: { organizationId: o.organizationId } };
}

export interface EndDay {
  readonly reason: DayEndReason;
  readonly at: Date;
}

/** Ends an open day; a day not opened or ended already (an answer's `done` or `cap` meanwhile) stays as it is. */
export const endDayDecider: Decider<EndDay, NewEvent<TrainingDayEnded>, DayFold | null> = {
  ...dayEvolution,
  decide({ reason, at }, fold) {
    if (!fold || fold.ended) return [];
    return [dayEndedEvent(fold, reason, at)];
  },
};

/**
 * Ends the day `dayId` (a closed practice window: `window_closed`), decided on `fold` when the caller read it,
 * on the stream after a conflict. Whether this call ended it.
 */
export async function endDay(
  deps: TrainingDeps,
  dayId: string,
  fold: DayFold | null,
  reason: DayEndReason,
  at: Date,
): Promise<boolean> {
  const result = await handleCommand(deps, {
    context: trainingCommands,
    streamId: streams.day(dayId),
    decider: endDayDecider,
    command: { reason, at },
    load: dayLoader(deps.store, dayId, fold),
  });
  return result.kind === 'appended';
}
