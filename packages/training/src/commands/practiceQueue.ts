import { handleCommand } from '@qiraa/command-kit';
import { type ItemRowDb, itemColumns, itemRowQuery } from '@qiraa/content';
import { randomEventId } from '@qiraa/eventstore';
import { conflict } from '@qiraa/http-kit';
import { sessionQueuedExpr } from '@qiraa/sessions';
import { trainingCommands } from '../commandContext';
import type { PracticeAnswerRecorded, SupportStepFired } from '../engine/dayEvents';
import { currentSlot, type DayFold, foldDay, type Slot } from '../engine/foldDay';
import { academicYearOf, schoolDayOf } from '../engine/schoolDay';
import { streams, type TrainingLevelMoved } from '../events';
import { activeSendJson, activeSendOf, type SendJson, sendOfJson } from '../queries/activeSend';
import { type Learner, type LearnerJson, learnerJson, learnerOf, learnerOfJson } from '../queries/learner';
import { practiceItemOf } from '../queries/practiceItem';
import { CURRENT_TRAINING_RULES, type TrainingRules } from '../rules/trainingRules';
import { loadDay, openDayOf, openDayStreamIdQuery, retrying, type TrainingDeps } from './dayStream';
import { endDay } from './endDay';
import { moveLevelAfter } from './moveLevel';
import { openDay } from './openDay';
import { type PracticeAnswerState, practiceAnswerDecider, type SubmitInput, supportReadsOf } from './practiceAnswer';
import { addSendExercise } from './sendExercise';

export type { SubmitInput } from './practiceAnswer';

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
  await endDay(deps, fold.opened.dayId, fold, 'window_closed', now);
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

export interface SubmitOutcome {
  learner: Learner;
  fold: DayFold;
  answer: PracticeAnswerRecorded;
  slot: Slot;
  item: ItemRowDb;
  step: SupportStepFired | null;
  moved: TrainingLevelMoved | null;
}

/** What a practice answer is decided on, read at once: none of these reads waits for another. */
export interface SubmitReads {
  learner: Learner | null;
  send: { sendId: string; skillId: string } | null;
  openDayId: string | null;
  /** The open day folded from its stream, read with the rest where the store can (undefined: read it apart). */
  openDay?: DayFold | null;
  /** The answered item's row (the item the answer names: used only when it is the slot's). */
  item: ItemRowDb | null;
  /** An online session is queued for the child (queuedSessionOf finds one): its item is answered first. */
  sessionQueued: boolean;
}

/**
 * The reads of `submitResponse` in one statement (one connection, one round trip; the caller may start it
 * early): the learner, the active send and the open day as learnerOf, activeSendOf and openDayIdOf read them,
 * whether a session is queued (as queuedSessionOf), the answered item's row, and the open day's stream where the
 * store reads a stream inside a statement (the answer is then decided on what this one round trip read).
 */
export async function submitReads(deps: TrainingDeps, studentId: number, itemId: string, now: Date) {
  const sql = deps.sql;
  const dayStream = deps.store.streamInStatement?.(sql, openDayStreamIdQuery(sql, studentId));
  const [row] = await sql<
    (Partial<ItemRowDb> & {
      learner: LearnerJson | null;
      send: SendJson | null;
      open_day_id: string | null;
      session_queued: boolean;
      day_events: unknown;
    })[]
  >`
    select ${learnerJson(sql, studentId)} as learner, ${activeSendJson(sql, studentId, now)} as send,
      (select day_id from trn_days where student_id = ${studentId} and ended_at is null) as open_day_id,
      ${sessionQueuedExpr(sql, studentId)} as session_queued,
      ${dayStream ? dayStream.expr : sql`null`} as day_events,
      ${itemColumns(sql)}
    from (select 1) as one left join (${itemRowQuery(sql, itemId)}) as item on true`;
  const { learner, send, open_day_id, session_queued, day_events, ...item } = row!;
  return {
    learner: learnerOfJson(studentId, learner),
    send: sendOfJson(send),
    openDayId: open_day_id,
    openDay: dayStream && open_day_id ? foldDay(dayStream.parse(day_events)) : undefined,
    item: item.id ? (item as ItemRowDb) : null,
    sessionQueued: session_queued,
  } satisfies SubmitReads;
}

/**
 * Records the child's answer to the current item (`practiceAnswerDecider`: counted or not, a support step, the
 * day's end), then, for a counted answer, the level rules on the level stream (`moveLevelAfter`, joining the
 * answer's unit of work). Pipelined: the append, its guard, the day projection's statements and COMMIT go out in
 * one exchange, or the level rule's reads in COMMIT's place for a counted answer. A parallel answer to the same
 * day is a conflict: decided again on the day's stream, it then finds its item answered (409 item_not_current).
 */
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
  const open = !reads.openDayId ? null : (reads.openDay ?? (await loadDay(deps.store, reads.openDayId)));
  const fold = await closeIfPast(deps, open, today, now);
  if (!fold) throw conflict('no_open_training_day', 'no training day is open; ask for the next item first');
  const dayId = fold.opened.dayId;
  /** The slot asked of `day` and its item row (the one read with the other reads when it is the slot's). */
  const stateOf = async (day: DayFold | null): Promise<PracticeAnswerState> => {
    const slot = day ? currentSlot(day, preferSkillId) : null;
    if (!slot || slot.itemId !== input.itemId) return { fold: day, slot, item: null };
    const item = reads.item?.id === slot.itemId ? reads.item : await practiceItemOf(deps.sql, slot.itemId);
    return { fold: day, slot, item };
  };
  let moved: TrainingLevelMoved | null = null;
  const answerId = randomEventId();
  const stepId = randomEventId();
  const result = await handleCommand(deps, {
    context: trainingCommands,
    streamId: streams.day(dayId),
    decider: practiceAnswerDecider(supportReadsOf(deps.sql)),
    command: { learner, input, rules, now, today, preferSkillId, answerId, stepId },
    load: {
      name: 'the open day as read (its stream after a conflict), the slot asked and its item',
      inTransaction: false,
      load: async (attempt) => {
        const day = attempt === 0 ? fold : await loadDay(deps.store, dayId);
        return { state: await stateOf(day), version: day?.version ?? 'no_stream' };
      },
    },
    pipelined: true,
    followUp: ({ fold: after }) => {
      moved = null;
      const answer = after?.answers.at(-1);
      if (!after || !answer?.counted || answer.answerId !== answerId) return null;
      const year = after.opened.academicYear ?? academicYearOf(after.opened.schoolDay);
      return async (uow) => {
        moved = await moveLevelAfter(deps, uow, rules, answer, year, learner.organizationId);
      };
    },
  });
  const { fold: after, slot, item } = result.state;
  const answer = after!.answers.at(-1)!;
  const step = after!.steps.find((s) => s.stepId === stepId) ?? null;
  return { learner, fold: after!, answer, slot: slot!, item: item!, step, moved };
}
