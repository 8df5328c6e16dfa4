import { eventsAs, type RecordedEvent } from '@qiraa/eventstore';
import type { PlannedExercise, PracticeAnswerRecorded, SupportStepFired, TrainingDayOpened } from '../engine/dayEvents';
import type {
  TRAINING_ALERT_ACKNOWLEDGED,
  TRAINING_ALERT_RAISED,
  TRAINING_ALERT_RESOLVED,
  TrainingAlertAcknowledged,
  TrainingAlertRaised,
  TrainingAlertResolved,
} from './alertEvents';
import type { TRAINING_SENT, TrainingSent } from './sendEvents';

/**
 * The training context's events. Levels live on the student's stream `traininglevel-<studentId>`: one
 * `TrainingLevelStarted` per skill and academic year, then a `TrainingLevelMoved` per move (up, down or
 * rebaseline). A day of practice lives on `trainingday-<dayId>` and ends with `TrainingDayEnded`.
 * The alerts part of this context (issue 14, alerts) reads these and writes its own stream.
 */
export const TRAINING_LEVEL_STARTED = 'TrainingLevelStarted';
export const TRAINING_LEVEL_MOVED = 'TrainingLevelMoved';
export const TRAINING_DAY_OPENED = 'TrainingDayOpened';
export const PRACTICE_ANSWER_RECORDED = 'PracticeAnswerRecorded';
export const SUPPORT_STEP_FIRED = 'SupportStepFired';
export const TRAINING_DAY_ENDED = 'TrainingDayEnded';
/** A teacher's send reached an open day that had no exercise of its skill: one is added (served first). */
export const SEND_EXERCISE_ADDED = 'SendExerciseAdded';

export const TRAINING_EVENT_TYPES = [
  TRAINING_LEVEL_STARTED,
  TRAINING_LEVEL_MOVED,
  TRAINING_DAY_OPENED,
  PRACTICE_ANSWER_RECORDED,
  SUPPORT_STEP_FIRED,
  TRAINING_DAY_ENDED,
  SEND_EXERCISE_ADDED,
] as const;

export const streams = {
  level: (studentId: number) => `traininglevel-${studentId}`,
  day: (dayId: string) => `trainingday-${dayId}`,
} as const;

export type TrainingLevelNumber = 1 | 2 | 3 | 4;
export type LevelStartSource = 'screen' | 'experience_type' | 'backtrack';
export type MoveDirection = 'up' | 'down' | 'rebaseline';
export type DayEndReason = 'done' | 'cap' | 'window_closed';

export interface TrainingLevelStarted {
  /** Deterministic: uuidv5 of student, skill and academic year. */
  moveId: string;
  studentId: number;
  organizationId: string | null;
  skillId: string;
  /** The skill's screening measure; null for a skill no measure screens. */
  measureCode: string | null;
  level: TrainingLevelNumber;
  startedFrom: LevelStartSource;
  /** The decision that seeded it (`TrainingLevelSeeded` seed id) when `startedFrom` is `screen`. */
  seedId: string | null;
  /** School day (YYYY-MM-DD) the level holds from. */
  since: string;
  at: string;
  academicYear: string;
  ruleVersion: string;
}

export interface TrainingLevelMoved {
  /** Deterministic: uuidv5 of student, skill, the answers it counted; the mastery event's engine event id on `up`. */
  moveId: string;
  studentId: number;
  organizationId: string | null;
  skillId: string;
  /** The skill's screening measure; null for a skill no measure screens. */
  measureCode: string | null;
  fromLevel: TrainingLevelNumber;
  toLevel: TrainingLevelNumber;
  direction: MoveDirection;
  /** Rule that fired (TLM-01 up, TLM-02 down, TLM-03 rebaseline). */
  ruleId: string;
  ruleVersion: string;
  /** The counted answers the rule read (PracticeAnswerRecorded answer ids). */
  evidenceAnswerIds: string[];
  /** School day the new level holds from. */
  since: string;
  at: string;
  academicYear: string;
  /** On `rebaseline`: the screen seed the level was set back to. */
  seedId?: string | null;
}

export interface TrainingDayEnded {
  dayId: string;
  studentId: number;
  organizationId: string | null;
  skillIds: string[];
  /** Level per target skill at the day's opening (same order as skillIds). */
  levels: TrainingLevelNumber[];
  /** Lowest target level of the day (single-skill days: the level). */
  level: TrainingLevelNumber;
  /** School day. */
  date: string;
  counted: number;
  correct: number;
  endReason: DayEndReason;
  at: string;
  academicYear: string;
}

export interface SendExerciseAdded {
  dayId: string;
  studentId: number;
  sendId: string;
  exercise: PlannedExercise;
  addedAt: string;
}

/**
 * Every event of this context's streams (levels, days, sends, alerts), typed: `type` discriminates `data`
 * (docs/architecture.md, "Typed events"). Add an event here with its constant and its data interface.
 */
export type TrainingEvent =
  | { type: typeof TRAINING_LEVEL_STARTED; data: TrainingLevelStarted }
  | { type: typeof TRAINING_LEVEL_MOVED; data: TrainingLevelMoved }
  | { type: typeof TRAINING_DAY_OPENED; data: TrainingDayOpened }
  | { type: typeof PRACTICE_ANSWER_RECORDED; data: PracticeAnswerRecorded }
  | { type: typeof SUPPORT_STEP_FIRED; data: SupportStepFired }
  | { type: typeof TRAINING_DAY_ENDED; data: TrainingDayEnded }
  | { type: typeof SEND_EXERCISE_ADDED; data: SendExerciseAdded }
  | { type: typeof TRAINING_SENT; data: TrainingSent }
  | { type: typeof TRAINING_ALERT_RAISED; data: TrainingAlertRaised }
  | { type: typeof TRAINING_ALERT_ACKNOWLEDGED; data: TrainingAlertAcknowledged }
  | { type: typeof TRAINING_ALERT_RESOLVED; data: TrainingAlertResolved };

/** Events read from the store as this context's (the one typed boundary: `eventsAs`). */
export const trainingEvents = (events: readonly RecordedEvent[]) => eventsAs<TrainingEvent>(events);
