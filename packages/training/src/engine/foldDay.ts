import type { RecordedEvent } from '@qiraa/eventstore';
import {
  PRACTICE_ANSWER_RECORDED,
  SEND_EXERCISE_ADDED,
  SUPPORT_STEP_FIRED,
  TRAINING_DAY_ENDED,
  TRAINING_DAY_OPENED,
  type TrainingDayEnded,
  trainingEvents,
} from '../events';
import type { PracticeAnswerRecorded, StepKind, SupportStepFired, TrainingDayOpened } from './dayEvents';

export interface DayFold {
  version: bigint;
  opened: TrainingDayOpened;
  answers: PracticeAnswerRecorded[];
  steps: SupportStepFired[];
  ended: TrainingDayEnded | null;
  /** When the day opened or the last answer was given (the command's clock): what a response time is measured from. */
  lastAt: Date;
}

/** What the child is asked now. */
export interface Slot {
  stepKind: StepKind;
  itemId: string;
  skillId: string;
  exerciseIndex: number | null;
  supportStepId: string | null;
  /** 1 or 2: the try this answer will be. */
  attempt: 1 | 2;
  /** The step's first item (a bridge step shows its introduction prompt). */
  startsBridge: boolean;
}

/** A day's events folded in stream order (null before it opened). */
export function foldDay(events: readonly RecordedEvent[]): DayFold | null {
  let fold: DayFold | null = null;
  for (const e of events) fold = evolveDay(fold, e);
  return fold;
}

/**
 * One stored event folded onto a day: the days' deciders' `evolve`. A new fold each time (the one given stays
 * as it was: a loaded state is folded again after an append).
 */
export function evolveDay(fold: DayFold | null, event: RecordedEvent): DayFold | null {
  const [e] = trainingEvents([event]);
  if (!e) return fold;
  if (e.type === TRAINING_DAY_OPENED) {
    return {
      version: e.streamVersion,
      opened: e.data,
      answers: [],
      steps: [],
      ended: null,
      lastAt: new Date(e.data.openedAt),
    };
  }
  if (!fold) return fold;
  const next: DayFold = { ...fold, version: e.streamVersion };
  if (e.type === PRACTICE_ANSWER_RECORDED) {
    next.answers = [...fold.answers, e.data];
    next.lastAt = new Date(e.data.answeredAt);
  } else if (e.type === SUPPORT_STEP_FIRED) next.steps = [...fold.steps, e.data];
  else if (e.type === SEND_EXERCISE_ADDED) {
    // Appended to the plan (a copy: the opening event's data stays as stored).
    next.opened = { ...fold.opened, exercises: [...fold.opened.exercises, e.data.exercise] };
  } else if (e.type === TRAINING_DAY_ENDED) next.ended = e.data;
  return next;
}

const slotKey = (kind: StepKind, group: string | number | null, itemId: string) => `${kind}:${group}:${itemId}`;

/** Tries an item of the kind allows: two for target and bridge items, one for the closing question. */
const triesOf = (kind: StepKind) => (kind === 'exit' ? 1 : 2);

/**
 * The queue's position: a fired support step's items come first (one step at a time), then the exercises'
 * items in order (those of `preferSkillId` first: a teacher's send in its window), then the closing question.
 * An item is finished after a correct answer or its last try.
 */
export function currentSlot(fold: DayFold, preferSkillId: string | null = null): Slot | null {
  if (fold.ended) return null;
  const tries = new Map<string, { n: number; finished: boolean }>();
  for (const a of fold.answers) {
    const key = slotKey(a.stepKind, a.stepKind === 'bridge' ? a.supportStepId : a.exerciseIndex, a.itemId);
    const t = tries.get(key) ?? { n: 0, finished: false };
    t.n += 1;
    t.finished = a.correct || t.n >= triesOf(a.stepKind);
    tries.set(key, t);
  }
  const pending = (kind: StepKind, group: string | number | null, itemId: string) => {
    const t = tries.get(slotKey(kind, group, itemId));
    return t?.finished ? null : (((t?.n ?? 0) + 1) as 1 | 2);
  };
  for (const step of fold.steps) {
    for (const [i, itemId] of step.itemIds.entries()) {
      const attempt = pending('bridge', step.stepId, itemId);
      if (attempt) {
        return {
          stepKind: 'bridge',
          itemId,
          skillId: step.targetSkillId,
          exerciseIndex: step.exerciseIndex,
          supportStepId: step.stepId,
          attempt,
          startsBridge: i === 0 && attempt === 1,
        };
      }
    }
  }
  const exercises = [...fold.opened.exercises.entries()].sort(
    ([, a], [, b]) => Number(b.skillId === preferSkillId) - Number(a.skillId === preferSkillId),
  );
  for (const [e, exercise] of exercises) {
    for (const itemId of exercise.itemIds) {
      const attempt = pending('target', e, itemId);
      if (attempt) {
        return {
          stepKind: 'target',
          itemId,
          skillId: exercise.skillId,
          exerciseIndex: e,
          supportStepId: null,
          attempt,
          startsBridge: false,
        };
      }
    }
  }
  const exit = fold.opened.exit;
  if (exit) {
    const attempt = pending('exit', null, exit.itemId);
    if (attempt) {
      return {
        stepKind: 'exit',
        itemId: exit.itemId,
        skillId: exit.skillId,
        exerciseIndex: null,
        supportStepId: null,
        attempt,
        startsBridge: false,
      };
    }
  }
  return null;
}

/** `practice` until the exercises (and any support step) are done, `exit` for the closing question, then `done`. */
export function phaseOf(fold: DayFold | null): 'practice' | 'exit' | 'done' {
  if (!fold || fold.ended) return 'done';
  const slot = currentSlot(fold);
  if (!slot) return 'done';
  return slot.stepKind === 'exit' ? 'exit' : 'practice';
}

export const exitOf = (fold: DayFold | null) => ({
  planned: fold?.opened.exit ? 1 : 0,
  done: fold?.answers.filter((a) => a.stepKind === 'exit').length ?? 0,
});
