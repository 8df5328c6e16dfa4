import type { TrainingLevelNumber } from '../events';
import type { AnswerRole, NotCountedReason } from './countedAnswer';

/** One exercise of a day: its target skill at the day's level and the items planned for it, in order. */
export interface PlannedExercise {
  skillId: string;
  level: TrainingLevelNumber;
  levelId: string;
  measureCode: string | null;
  itemIds: string[];
}

export interface TrainingDayOpened {
  dayId: string;
  studentId: number;
  organizationId: string | null;
  schoolDay: string;
  timeZone: string;
  academicYear: string;
  leveled: boolean;
  ruleVersion: string;
  exercises: PlannedExercise[];
  /** The closing question: the first target's level, an item not served that day when one is left. */
  exit: { skillId: string; level: TrainingLevelNumber; levelId: string; itemId: string } | null;
  plannedExercises: number;
  questionsPerExercise: number;
  openedAt: string;
}

export type StepKind = 'target' | 'bridge' | 'exit';

export interface PracticeAnswerRecorded {
  answerId: string;
  dayId: string;
  studentId: number;
  itemId: string;
  skillId: string;
  level: TrainingLevelNumber;
  levelId: string;
  role: AnswerRole;
  stepKind: StepKind;
  exerciseIndex: number | null;
  supportStepId: string | null;
  attempt: 1 | 2;
  correct: boolean;
  hinted: boolean;
  counted: boolean;
  notCounted: NotCountedReason | null;
  responseMs: number;
  /** Active time of the day after this answer (gaps longer than the idle gap count as the idle gap). */
  activeSeconds: number;
  schoolDay: string;
  answeredAt: string;
}

export interface SupportStepFired {
  stepId: string;
  dayId: string;
  studentId: number;
  ruleId: string;
  ruleVersion: string;
  targetSkillId: string;
  level: TrainingLevelNumber;
  supportSkills: string[];
  exerciseIndex: number;
  itemIds: string[];
  /** The introduction prompt (a scaffold prompt of the support skill) shown with the step's first item. */
  promptId: string | null;
  promptAr: string | null;
  firedAt: string;
}
