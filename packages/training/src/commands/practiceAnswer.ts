import type { Decider } from '@qiraa/command-kit';
import type { ItemRowDb } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import type { NewEvent } from '@qiraa/eventstore';
import { conflict, unprocessable } from '@qiraa/http-kit';
import { countedAnswer } from '../engine/countedAnswer';
import type { PracticeAnswerRecorded, SupportStepFired } from '../engine/dayEvents';
import { currentSlot, type DayFold, evolveDay, type Slot } from '../engine/foldDay';
import { PRACTICE_ANSWER_RECORDED, SUPPORT_STEP_FIRED, type TrainingDayEnded } from '../events';
import type { Learner } from '../queries/learner';
import { bridgeItemsOf, scaffoldPromptOf } from '../queries/trainingPool';
import { bridgeRuleFor, type TrainingRules } from '../rules/trainingRules';
import { dayEndedEvent } from './endDay';

export interface SubmitInput {
  itemId: string;
  selectedOptionKey: string;
  /** The child opened the item's hint before answering: the answer is not independent. */
  hintUsed?: boolean;
}

export interface PracticeAnswer {
  readonly learner: Learner;
  readonly input: SubmitInput;
  readonly rules: TrainingRules;
  readonly now: Date;
  /** The learner's school day now: a day of an earlier one is no longer open for answers. */
  readonly today: string;
  readonly preferSkillId: string | null;
  /** The ids the answer and a support step get: made once by the caller, so a decision taken again is the same. */
  readonly answerId: string;
  readonly stepId: string;
}

/**
 * The day, and what its loader read beside it: the slot being asked when it was read and that slot's item row
 * (null when the answer names another item, or the item left the bank). `slot` and `item` describe the day
 * as loaded: an append folds onto `fold` only, so after the command they name what was answered.
 */
export interface PracticeAnswerState {
  readonly fold: DayFold | null;
  readonly slot: Slot | null;
  readonly item: ItemRowDb | null;
}

/** The bridge items and scaffold prompt a support step shows: reads a rule needs only once it fires. */
export interface SupportReads {
  bridgeItems(learner: Learner, targetSkillId: string, supportSkills: readonly string[], n: number): Promise<string[]>;
  scaffoldPrompt(
    organizationId: string,
    supportSkills: readonly string[],
    tier: number,
  ): Promise<{ id: string; promptAr: string } | null>;
}

export const supportReadsOf = (sql: AnySql): SupportReads => ({
  bridgeItems: (learner, skillId, supportSkills, n) => bridgeItemsOf(sql, learner, skillId, supportSkills, n),
  scaffoldPrompt: (organizationId, supportSkills, tier) => scaffoldPromptOf(sql, organizationId, supportSkills, tier),
});

/** What an answer appends to its day: the answer, a support step, the day's end. */
export type AnswerEvent = NewEvent<PracticeAnswerRecorded> | NewEvent<SupportStepFired> | NewEvent<TrainingDayEnded>;

const finishesItem = (slot: Slot, correct: boolean) => correct || slot.attempt === 2 || slot.stepKind === 'exit';

const countOf = (a: PracticeAnswerRecorded) => ({
  counted: a.counted ? 1 : 0,
  correct: a.counted && a.correct ? 1 : 0,
});

/**
 * The practice answer's rules: refused unless the day is open today and the answer is to the slot being asked
 * with one of its item's options; then the answer, counted or not (and why), a support step when the exercise's
 * wrong first tries reach the trigger at levels 1-2 (one step at a time, one per exercise), and the day's end
 * (`done` after the closing question, `cap` at 17 minutes of active time). `decide` is async only where a step
 * fires: its bridge items and prompt are read then (`SupportReads`), not on every answer.
 */
export const practiceAnswerDecider = (
  support: SupportReads,
): Decider<PracticeAnswer, AnswerEvent, PracticeAnswerState> => ({
  initialState: () => ({ fold: null, slot: null, item: null }),
  evolve: (state, event) => ({ ...state, fold: evolveDay(state.fold, event) }),
  async decide(command, { fold, slot, item }) {
    const { learner, input, rules, now, today } = command;
    if (!fold || fold.ended || fold.opened.schoolDay < today) {
      throw conflict('no_open_training_day', 'no training day is open; ask for the next item first');
    }
    if (!slot || slot.itemId !== input.itemId)
      throw conflict('item_not_current', 'the item is not the one being asked');
    if (!item) throw conflict('item_not_current', 'the item is no longer in the bank');
    if (!item.options.some((o) => o.key === input.selectedOptionKey)) {
      throw unprocessable('unknown_option', 'the selected option is not one of the item’s options', [
        { field: 'selectedOptionKey', issue: 'not an option of the item' },
      ]);
    }
    const correct = item.correct_option_key === input.selectedOptionKey;
    const exercise = slot.exerciseIndex === null ? null : fold.opened.exercises[slot.exerciseIndex]!;
    const target = exercise ?? fold.opened.exit!;
    const role =
      slot.stepKind === 'bridge'
        ? 'support'
        : slot.stepKind === 'exit'
          ? 'exit'
          : slot.attempt === 2
            ? 'retry'
            : 'ordinary';
    const responseMs = Math.max(0, now.getTime() - fold.lastAt.getTime());
    const repeatedToday = fold.answers.some(
      (a) => a.itemId === slot.itemId && (a.stepKind !== slot.stepKind || a.exerciseIndex !== slot.exerciseIndex),
    );
    const hinted = input.hintUsed === true;
    const verdict = countedAnswer(rules, { role, repeatedToday, hinted, responseMs });
    const previousActive = fold.answers.at(-1)?.activeSeconds ?? 0;
    const activeSeconds = previousActive + Math.min(Math.round(responseMs / 1000), rules.day.idleGapSeconds);
    const answer: PracticeAnswerRecorded = {
      answerId: command.answerId,
      dayId: fold.opened.dayId,
      studentId: learner.studentId,
      itemId: slot.itemId,
      skillId: target.skillId,
      level: target.level,
      levelId: target.levelId,
      role,
      stepKind: slot.stepKind,
      exerciseIndex: slot.exerciseIndex,
      supportStepId: slot.supportStepId,
      attempt: slot.attempt,
      correct,
      hinted,
      counted: verdict.counted,
      notCounted: verdict.reason,
      responseMs,
      activeSeconds,
      schoolDay: fold.opened.schoolDay,
      answeredAt: now.toISOString(),
    };
    const meta = { organizationId: learner.organizationId, actorUserId: learner.studentId };
    const events: AnswerEvent[] = [
      { eventId: answer.answerId, type: PRACTICE_ANSWER_RECORDED, data: answer, metadata: meta },
    ];
    const after: DayFold = { ...fold, answers: [...fold.answers, answer], steps: [...fold.steps], lastAt: now };
    if (
      slot.stepKind === 'target' &&
      exercise &&
      finishesItem(slot, correct) &&
      exercise.level <= rules.support.maxLevel
    ) {
      const step = await supportStepFor(support, command, after, slot.exerciseIndex!);
      if (step) {
        events.push({ eventId: step.stepId, type: SUPPORT_STEP_FIRED, data: step, metadata: meta });
        after.steps.push(step);
      }
    }
    const endReason = !currentSlot(after) ? 'done' : activeSeconds >= rules.day.capSeconds ? 'cap' : null;
    if (endReason) events.push(dayEndedEvent(fold, endReason, now, countOf(answer)));
    return events;
  },
});

/** The bridge rule of the exercise's skill and level fires when its wrong first tries reach the trigger. */
async function supportStepFor(
  support: SupportReads,
  { learner, rules, now, stepId }: PracticeAnswer,
  after: DayFold,
  exerciseIndex: number,
): Promise<SupportStepFired | null> {
  if (after.steps.some((s) => s.exerciseIndex === exerciseIndex)) return null;
  const wrongFirst = after.answers.filter(
    (a) => a.stepKind === 'target' && a.exerciseIndex === exerciseIndex && a.attempt === 1 && !a.correct,
  ).length;
  if (wrongFirst < rules.support.triggerWrongFirstTries) return null;
  const exercise = after.opened.exercises[exerciseIndex]!;
  const rule = bridgeRuleFor(rules, exercise.skillId, exercise.level);
  if (!rule) return null;
  const itemIds = await support.bridgeItems(learner, exercise.skillId, rule.supportSkills, rules.support.questions);
  if (itemIds.length === 0) return null;
  const prompt = await support.scaffoldPrompt(learner.organizationId, rule.supportSkills, rules.support.promptTier);
  return {
    stepId,
    dayId: after.opened.dayId,
    studentId: learner.studentId,
    ruleId: rule.id,
    ruleVersion: rules.version,
    targetSkillId: exercise.skillId,
    level: exercise.level,
    supportSkills: rule.supportSkills,
    exerciseIndex,
    itemIds,
    promptId: prompt?.id ?? null,
    promptAr: prompt?.promptAr ?? null,
    firedAt: now.toISOString(),
  };
}
