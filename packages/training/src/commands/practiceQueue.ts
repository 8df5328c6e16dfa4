import type { ItemRowDb } from '@qiraa/content';
import { inTransaction } from '@qiraa/db';
import { type NewEvent, randomEventId } from '@qiraa/eventstore';
import { conflict, unprocessable } from '@qiraa/http-kit';
import { countedAnswer } from '../engine/countedAnswer';
import type { PracticeAnswerRecorded, SupportStepFired } from '../engine/dayEvents';
import { currentSlot, type DayFold, type Slot } from '../engine/foldDay';
import { academicYearOf, schoolDayOf } from '../engine/schoolDay';
import {
  PRACTICE_ANSWER_RECORDED,
  SUPPORT_STEP_FIRED,
  type TrainingDayEnded,
  type TrainingLevelMoved,
} from '../events';
import { type Learner, learnerOf } from '../queries/learner';
import { practiceItemOf } from '../queries/practiceItem';
import { bridgeItemsOf, scaffoldPromptOf } from '../queries/trainingPool';
import { bridgeRuleFor, CURRENT_TRAINING_RULES, type TrainingRules } from '../rules/trainingRules';
import { appendDayEvents, loadDay, openDayOf, retrying, type TrainingDeps } from './dayStream';
import { dayEndedEvent } from './endDay';
import { moveLevelAfter } from './moveLevel';
import { openDay } from './openDay';

export interface QueueOptions {
  now?: Date;
  rules?: TrainingRules;
}

export type NextReason = 'no_eligible_item' | 'day_ended' | null;

async function learnerOr409(deps: TrainingDeps, studentId: number): Promise<Learner> {
  const learner = await learnerOf(deps.sql, studentId);
  if (!learner) throw conflict('no_active_class', 'the child is in no active class');
  return learner;
}

/** An open day of an earlier school day ends `window_closed` (its practice window was that school day). */
async function closeIfPast(
  deps: TrainingDeps,
  fold: DayFold | null,
  today: string,
  now: Date,
): Promise<DayFold | null> {
  if (!fold || fold.opened.schoolDay >= today) return fold;
  await inTransaction(deps.sql, (uow) =>
    appendDayEvents(deps.store, uow, fold.opened.dayId, fold.version, [dayEndedEvent(fold, 'window_closed', now)]),
  );
  return null;
}

/**
 * The child's day now: the open day of today, else today's ended day (`day_ended`), else a newly opened one,
 * else nothing to serve (`no_eligible_item`, nothing written: no substitute item).
 */
export async function currentDay(
  deps: TrainingDeps,
  studentId: number,
  options: QueueOptions & { open: boolean },
): Promise<{ learner: Learner; fold: DayFold | null; reason: NextReason }> {
  const now = options.now ?? new Date();
  const rules = options.rules ?? CURRENT_TRAINING_RULES;
  const learner = await learnerOr409(deps, studentId);
  const today = schoolDayOf(now, learner.timeZone);
  return retrying(async () => {
    const open = await closeIfPast(deps, await openDayOf(deps, deps.sql, studentId), today, now);
    if (open) return { learner, fold: open, reason: null };
    const [ended] = await deps.sql<{ day_id: string }[]>`
      select day_id from trn_days where student_id = ${studentId} and school_day = ${today}
      order by opened_at desc limit 1`;
    if (ended) return { learner, fold: await loadDay(deps.store, ended.day_id), reason: 'day_ended' as const };
    if (!options.open) return { learner, fold: null, reason: null };
    const fold = await openDay(deps, learner, rules, now, today);
    return { learner, fold, reason: fold ? null : ('no_eligible_item' as const) };
  });
}

export interface SubmitInput {
  itemId: string;
  selectedOptionKey: string;
  /** The child opened the item's hint before answering: the answer is not independent. */
  hintUsed?: boolean;
}

export interface SubmitOutcome {
  learner: Learner;
  fold: DayFold;
  answer: PracticeAnswerRecorded;
  slot: Slot;
  item: ItemRowDb;
  step: SupportStepFired | null;
  moved: TrainingLevelMoved | null;
}

const finishesItem = (slot: Slot, correct: boolean) => correct || slot.attempt === 2 || slot.stepKind === 'exit';

/**
 * Records the child's answer to the current item: counted or not (and why), a support step when the
 * exercise's wrong first tries reach the trigger at levels 1-2 (one step at a time, one per exercise), the
 * day's end (`done` after the closing question, `cap` at 17 minutes of active time), then the level rules.
 * One transaction; a parallel answer to the same day retries from a fresh read and then finds its item
 * answered (409 item_not_current).
 */
export async function submitResponse(
  deps: TrainingDeps,
  studentId: number,
  input: SubmitInput,
  options: QueueOptions = {},
): Promise<SubmitOutcome> {
  const now = options.now ?? new Date();
  const rules = options.rules ?? CURRENT_TRAINING_RULES;
  const learner = await learnerOr409(deps, studentId);
  const today = schoolDayOf(now, learner.timeZone);
  return retrying(async () => {
    const fold = await closeIfPast(deps, await openDayOf(deps, deps.sql, studentId), today, now);
    if (!fold) throw conflict('no_open_training_day', 'no training day is open; ask for the next item first');
    const slot = currentSlot(fold)!;
    if (!slot || slot.itemId !== input.itemId)
      throw conflict('item_not_current', 'the item is not the one being asked');
    const item = await practiceItemOf(deps.sql, slot.itemId);
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
      answerId: randomEventId(),
      dayId: fold.opened.dayId,
      studentId,
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
    const meta = { organizationId: learner.organizationId, actorUserId: studentId };
    const events: NewEvent[] = [
      { eventId: answer.answerId, type: PRACTICE_ANSWER_RECORDED, data: answer, metadata: meta },
    ];
    const after: DayFold = { ...fold, answers: [...fold.answers, answer], steps: [...fold.steps], lastAt: now };
    let step: SupportStepFired | null = null;
    if (
      slot.stepKind === 'target' &&
      exercise &&
      finishesItem(slot, correct) &&
      exercise.level <= rules.support.maxLevel
    ) {
      step = await supportStepFor(deps, learner, rules, after, slot.exerciseIndex!, now);
      if (step) {
        events.push({ eventId: step.stepId, type: SUPPORT_STEP_FIRED, data: step, metadata: meta });
        after.steps.push(step);
      }
    }
    const endReason = !currentSlot(after) ? 'done' : activeSeconds >= rules.day.capSeconds ? 'cap' : null;
    if (endReason) {
      const end = dayEndedEvent(fold, endReason, now, countOf(answer));
      events.push(end);
      after.ended = end.data as TrainingDayEnded;
    }
    const moved = await inTransaction(deps.sql, async (uow) => {
      await appendDayEvents(deps.store, uow, fold.opened.dayId, fold.version, events);
      if (!answer.counted) return null;
      const year = fold.opened.academicYear ?? academicYearOf(fold.opened.schoolDay);
      return moveLevelAfter(deps, uow, rules, answer, year, learner.organizationId);
    });
    return { learner, fold: after, answer, slot, item, step, moved };
  });
}

const countOf = (a: PracticeAnswerRecorded) => ({
  counted: a.counted ? 1 : 0,
  correct: a.counted && a.correct ? 1 : 0,
});

/** The bridge rule of the exercise's skill and level fires when its wrong first tries reach the trigger. */
async function supportStepFor(
  deps: TrainingDeps,
  learner: Learner,
  rules: TrainingRules,
  after: DayFold,
  exerciseIndex: number,
  now: Date,
): Promise<SupportStepFired | null> {
  if (after.steps.some((s) => s.exerciseIndex === exerciseIndex)) return null;
  const wrongFirst = after.answers.filter(
    (a) => a.stepKind === 'target' && a.exerciseIndex === exerciseIndex && a.attempt === 1 && !a.correct,
  ).length;
  if (wrongFirst < rules.support.triggerWrongFirstTries) return null;
  const exercise = after.opened.exercises[exerciseIndex]!;
  const rule = bridgeRuleFor(rules, exercise.skillId, exercise.level);
  if (!rule) return null;
  const itemIds = await bridgeItemsOf(deps.sql, learner, exercise.skillId, rule.supportSkills, rules.support.questions);
  if (itemIds.length === 0) return null;
  const prompt = await scaffoldPromptOf(deps.sql, learner.organizationId, rule.supportSkills, rules.support.promptTier);
  return {
    stepId: randomEventId(),
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
