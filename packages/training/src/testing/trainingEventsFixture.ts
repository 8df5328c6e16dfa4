import { deterministicEventId, type EventStore } from '@qiraa/eventstore';
import {
  streams,
  TRAINING_DAY_ENDED,
  TRAINING_LEVEL_MOVED,
  TRAINING_LEVEL_STARTED,
  type TrainingDayEnded,
  type TrainingLevelMoved,
  type TrainingLevelNumber,
  type TrainingLevelStarted,
} from '../events';

/**
 * Appends the training context's own events as its commands would (the contract of packages/training/src/events/index.ts),
 * so the alerts part is tested against the events alone: a level start or move, and an ended day.
 */
export interface Place {
  studentId: number;
  organizationId: string;
  skillId: string;
  measureCode: string | null;
}

const YEAR = '2026-2027';

export async function startLevel(store: EventStore, p: Place, level: TrainingLevelNumber, since: string) {
  const moveId = deterministicEventId('test-level-start', p.studentId, p.skillId, since);
  const data: TrainingLevelStarted = {
    moveId,
    studentId: p.studentId,
    organizationId: p.organizationId,
    skillId: p.skillId,
    measureCode: p.measureCode,
    level,
    startedFrom: 'experience_type',
    seedId: null,
    since,
    at: `${since}T07:00:00.000Z`,
    academicYear: YEAR,
    ruleVersion: 'test',
  };
  await store.append(streams.level(p.studentId), [{ eventId: moveId, type: TRAINING_LEVEL_STARTED, data }]);
  return moveId;
}

export async function moveLevel(
  store: EventStore,
  p: Place,
  fromLevel: TrainingLevelNumber,
  toLevel: TrainingLevelNumber,
  since: string,
) {
  const moveId = deterministicEventId('test-level-move', p.studentId, p.skillId, since, toLevel);
  const data: TrainingLevelMoved = {
    moveId,
    studentId: p.studentId,
    organizationId: p.organizationId,
    skillId: p.skillId,
    measureCode: p.measureCode,
    fromLevel,
    toLevel,
    direction: toLevel > fromLevel ? 'up' : 'down',
    ruleId: toLevel > fromLevel ? 'TLM-01' : 'TLM-02',
    ruleVersion: 'test',
    evidenceAnswerIds: [],
    since,
    at: `${since}T08:00:00.000Z`,
    academicYear: YEAR,
  };
  await store.append(streams.level(p.studentId), [{ eventId: moveId, type: TRAINING_LEVEL_MOVED, data }]);
  return moveId;
}

/** One ended training day of the skill at `level` with these counted answers. */
export async function endDay(
  store: EventStore,
  p: Place,
  level: TrainingLevelNumber,
  date: string,
  counted: number,
  correct: number,
) {
  const dayId = deterministicEventId('test-day', p.studentId, p.skillId, date);
  const data: TrainingDayEnded = {
    dayId,
    studentId: p.studentId,
    organizationId: p.organizationId,
    skillIds: [p.skillId],
    levels: [level],
    level,
    date,
    counted,
    correct,
    endReason: 'done',
    at: `${date}T09:00:00.000Z`,
    academicYear: YEAR,
  };
  await store.append(streams.day(dayId), [{ type: TRAINING_DAY_ENDED, data }]);
  return dayId;
}
