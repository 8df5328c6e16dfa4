import type { UnitOfWork } from '@qiraa/db';
import type { EventStore, NewEvent } from '@qiraa/eventstore';
import type { DayFold } from '../engine/foldDay';
import { type DayEndReason, TRAINING_DAY_ENDED, type TrainingDayEnded } from '../events';

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

export type { EventStore, UnitOfWork };
