import { type ItemRowDb, itemColumns } from '@qiraa/content';
import { commitAfter, inTransaction, type UnitOfWork } from '@qiraa/db';
import {
  type NewEvent,
  NOT_APPENDED,
  type RecordedEvent,
  randomEventId,
  requireAppended,
  stampMetadata,
} from '@qiraa/eventstore';
import { conflict, unprocessable } from '@qiraa/http-kit';
import { applyInline } from '@qiraa/projections';
import { sessionQueuedExpr } from '@qiraa/sessions';
import { countedAnswer } from '../engine/countedAnswer';
import type { PracticeAnswerRecorded, SupportStepFired } from '../engine/dayEvents';
import { currentSlot, type DayFold, type Slot } from '../engine/foldDay';
import { academicYearOf, schoolDayOf } from '../engine/schoolDay';
import { PRACTICE_ANSWER_RECORDED, SUPPORT_STEP_FIRED, streams, type TrainingLevelMoved } from '../events';
import { daysProjection } from '../projections/daysProjection';
import { type Learner, type LearnerJson, learnerJson, learnerOf, learnerOfJson } from '../queries/learner';
import { practiceItemOf } from '../queries/practiceItem';
import { bridgeItemsOf, scaffoldPromptOf } from '../queries/trainingPool';
import { bridgeRuleFor, CURRENT_TRAINING_RULES, type TrainingRules } from '../rules/trainingRules';
import { activeSendJson, activeSendOf, type SendJson, sendOfJson } from '../sends/activeSend';
import { addSendExercise } from '../sends/sendExercise';
import {
  appendDay,
  appendDayEvents,
  DayStreamMoved,
  loadDay,
  openDayIdOf,
  openDayOf,
  retrying,
  type TrainingDeps,
} from './dayStream';
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
): Promise<{ learner: Learner; fold: DayFold | null; reason: NextReason; preferSkillId: string | null }> {
  const now = options.now ?? new Date();
  const rules = options.rules ?? CURRENT_TRAINING_RULES;
  const learner = await learnerOr409(deps, studentId);
  const today = schoolDayOf(now, learner.timeZone);
  const send = await activeSendOf(deps.sql, studentId, now);
  const preferSkillId = send?.skillId ?? null;
  return retrying(async () => {
    const open = await closeIfPast(deps, await openDayOf(deps, deps.sql, studentId), today, now);
    if (open && send && options.open && (await addSendExercise(deps, learner, rules, open, send, now))) {
      return { learner, fold: await loadDay(deps.store, open.opened.dayId), reason: null, preferSkillId };
    }
    if (open) return { learner, fold: open, reason: null, preferSkillId };
    const [ended] = await deps.sql<{ day_id: string }[]>`
      select day_id from trn_days where student_id = ${studentId} and school_day = ${today}
      order by opened_at desc limit 1`;
    if (ended) {
      return { learner, fold: await loadDay(deps.store, ended.day_id), reason: 'day_ended' as const, preferSkillId };
    }
    if (!options.open) return { learner, fold: null, reason: null, preferSkillId };
    const fold = await openDay(deps, learner, rules, now, today, preferSkillId);
    return { learner, fold, reason: fold ? null : ('no_eligible_item' as const), preferSkillId };
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
/** What a practice answer is decided on, read at once: none of these reads waits for another. */
export interface SubmitReads {
  learner: Learner | null;
  send: { sendId: string; skillId: string } | null;
  openDayId: string | null;
  /** The answered item's row (the item the answer names: used only when it is the slot's). */
  item: ItemRowDb | null;
  /** An online session is queued for the child (queuedSessionOf finds one): its item is answered first. */
  sessionQueued: boolean;
}

/**
 * The reads of `submitResponse` in one statement (one connection, one round trip; the caller may start it
 * early): the learner, the active send and the open day as learnerOf, activeSendOf and openDayIdOf read them,
 * whether a session is queued (as queuedSessionOf), and the answered item's row.
 */
export async function submitReads(deps: TrainingDeps, studentId: number, itemId: string, now: Date) {
  const sql = deps.sql;
  const [row] = await sql<
    (Partial<ItemRowDb> & {
      learner: LearnerJson | null;
      send: SendJson | null;
      open_day_id: string | null;
      session_queued: boolean;
    })[]
  >`
    select ${learnerJson(sql, studentId)} as learner, ${activeSendJson(sql, studentId, now)} as send,
      (select day_id from trn_days where student_id = ${studentId} and ended_at is null) as open_day_id,
      ${sessionQueuedExpr(sql, studentId)} as session_queued,
      ${itemColumns(sql)}
    from (select 1) as one left join content_items on content_items.id = ${itemId}`;
  const { learner, send, open_day_id, session_queued, ...item } = row!;
  return {
    learner: learnerOfJson(studentId, learner),
    send: sendOfJson(send),
    openDayId: open_day_id,
    item: item.id ? (item as ItemRowDb) : null,
    sessionQueued: session_queued,
  } satisfies SubmitReads;
}

export async function submitResponse(
  deps: TrainingDeps,
  studentId: number,
  input: SubmitInput,
  options: QueueOptions & { reads?: SubmitReads } = {},
): Promise<SubmitOutcome> {
  const now = options.now ?? new Date();
  const rules = options.rules ?? CURRENT_TRAINING_RULES;
  const reads = options.reads ?? (await submitReads(deps, studentId, input.itemId, now));
  const learner = reads.learner;
  if (!learner) throw conflict('no_active_class', 'the child is in no active class');
  const today = schoolDayOf(now, learner.timeZone);
  const preferSkillId = reads.send?.skillId ?? null;
  let first = true;
  return retrying(async () => {
    // The first try decides on the reads above; a retry (the day's stream moved) reads the open day again.
    const openDayId = first ? reads.openDayId : await openDayIdOf(deps.sql, studentId);
    first = false;
    const open = openDayId ? await loadDay(deps.store, openDayId) : null;
    const fold = await closeIfPast(deps, open, today, now);
    if (!fold) throw conflict('no_open_training_day', 'no training day is open; ask for the next item first');
    const slot = currentSlot(fold, preferSkillId)!;
    if (!slot || slot.itemId !== input.itemId)
      throw conflict('item_not_current', 'the item is not the one being asked');
    const item = reads.item?.id === slot.itemId ? reads.item : await practiceItemOf(deps.sql, slot.itemId);
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
      after.ended = end.data;
    }
    const year = fold.opened.academicYear ?? academicYearOf(fold.opened.schoolDay);
    const moved = await inTransaction(deps.sql, async (uow) => {
      if (deps.store.adapter === 'postgres' && uow.commitAfter) {
        return recordAnswerPipelined(deps, uow, fold, events, answer, () =>
          moveLevelAfter(deps, uow, rules, answer, year, learner.organizationId),
        );
      }
      const recorded = await appendDay(deps.store, uow, fold.opened.dayId, fold.version, events);
      if (recorded.length > 0) await applyInline(uow, daysProjection, recorded);
      if (!answer.counted) return null;
      return moveLevelAfter(deps, uow, rules, answer, year, learner.organizationId);
    });
    return { learner, fold: after, answer, slot, item, step, moved };
  });
}

/**
 * The answer's write on PostgreSQL in one exchange: the append, the guard of migration 0046, the day
 * projection's statements (they read only each event's data and stream version, known before the append) and
 * then COMMIT when the answer is not counted, else the level rule's reads (they see the answer just stored);
 * a move, if any, is appended after them. A moved stream (es_append answers a conflict, or a duplicate,
 * without an error) throws `DayStreamMoved` and the guard rolls everything back: the command decides again.
 */
async function recordAnswerPipelined(
  deps: TrainingDeps,
  uow: UnitOfWork,
  fold: DayFold,
  events: readonly NewEvent[],
  answer: PracticeAnswerRecorded,
  moveLevel: () => Promise<TrainingLevelMoved | null>,
): Promise<TrainingLevelMoved | null> {
  const dayId = fold.opened.dayId;
  const withIds = events.map((e) => ({ ...e, eventId: e.eventId ?? randomEventId() }));
  const predicted: RecordedEvent[] = withIds.map((e, i) => ({
    eventId: e.eventId,
    streamId: streams.day(dayId),
    streamVersion: fold.version + BigInt(i + 1),
    type: e.type,
    schemaVersion: e.schemaVersion ?? 1,
    data: e.data ?? null,
    metadata: stampMetadata(e.metadata),
    createdAt: new Date(),
    position: '',
  }));
  const appended = deps.store.append(streams.day(dayId), withIds, { uow, expected: fold.version }).then((r) => {
    if (r.kind !== 'appended') throw new DayStreamMoved(`trainingday-${dayId}: ${r.kind}`);
  });
  const guard = requireAppended(
    uow.sql,
    withIds.map((e) => e.eventId),
  );
  const projected = applyInline(uow, daysProjection, predicted);
  // Whichever fails first (the append's outcome or the guard's error, answered in the same exchange), a
  // stream that moved is DayStreamMoved, for `retrying`.
  const moved = (error: unknown): never => {
    if ((error as { code?: string })?.code === NOT_APPENDED) throw new DayStreamMoved(`trainingday-${dayId} moved`);
    throw error;
  };
  if (!answer.counted) {
    await commitAfter(uow, Promise.all([appended, guard, projected]).catch(moved));
    return null;
  }
  // A macrotask later, as the guard: the level rule's reads go out behind the projection's statements.
  const move = new Promise<void>((resolve) => setImmediate(resolve)).then(moveLevel);
  const [, , , level] = await Promise.all([appended, guard, projected, move]).catch(moved);
  return level;
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
