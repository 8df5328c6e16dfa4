import { type Decider, handleCommand } from '@qiraa/command-kit';
import { type ItemRowDb, itemRowById } from '@qiraa/content';
import type { AnySql, Sql } from '@qiraa/db';
import { deterministicEventId, type EventStore, isOfType, type NewEvent } from '@qiraa/eventstore';
import { conflict, unprocessable } from '@qiraa/http-kit';
import { sessionsCommands } from '../commandContext';
import {
  SESSION_ANSWER_RECORDED,
  SESSION_SLOT_COMPLETED,
  type SessionAnswerRecorded,
  type SessionEvent,
  type SessionSlotCompleted,
  sessionStream,
} from '../events';
import { currentSessionItem, type QueuedSession, queuedSessionOf } from '../queries/sessionQueue';

export interface SessionAnswerOutcome {
  queued: QueuedSession;
  answer: SessionAnswerRecorded;
  completed: boolean;
  explanationAr: string | null;
}

export interface AnswerSessionItem {
  readonly studentId: number;
  readonly input: { readonly itemId: string; readonly selectedOptionKey: string };
  readonly now: Date;
}

/**
 * The child's queued session (null: none), read under its slot's lock, with the current item's row (null when
 * the answer names another item or it left the bank) and, when this answer is the last, the answers stored
 * before it (what the completion counts).
 */
export interface SessionAnswerState {
  readonly queued: QueuedSession | null;
  readonly item: ItemRowDb | null;
  readonly stored: readonly { readonly subSkillId: string; readonly correct: boolean }[];
}

/**
 * One try per session item, the current one only (409 item_not_current), one of its options (422
 * unknown_option): `SessionAnswerRecorded`, and `SessionSlotCompleted` with the last item. Nothing without a
 * queued session (the caller answers from the training day). The state is read, not folded.
 */
export const sessionAnswerDecider: Decider<AnswerSessionItem, NewEvent & SessionEvent, SessionAnswerState> = {
  initialState: () => ({ queued: null, item: null, stored: [] }),
  evolve: (state) => state,
  decide({ studentId, input, now }, { queued: q, item, stored }) {
    if (!q) return [];
    const current = currentSessionItem(q);
    if (current !== input.itemId) throw conflict('item_not_current', 'the item is not the one being asked');
    if (!item) throw conflict('item_not_current', 'the item is no longer in the bank');
    if (!item.options.some((o) => o.key === input.selectedOptionKey)) {
      throw unprocessable('unknown_option', 'the selected option is not one of the item’s options', [
        { field: 'selectedOptionKey', issue: 'not an option of the item' },
      ]);
    }
    const answer: SessionAnswerRecorded = {
      answerId: deterministicEventId('session-answer', q.sessionId, studentId, current),
      sessionId: q.sessionId,
      slotId: q.slotId,
      studentId,
      organizationId: q.organizationId,
      itemId: current,
      subSkillId: item.sub_skill_id,
      position: q.itemIds.indexOf(current) + 1,
      selectedOptionKey: input.selectedOptionKey,
      correct: item.correct_option_key === input.selectedOptionKey,
      total: q.itemIds.length,
      answeredAt: now.toISOString(),
    };
    const meta = { organizationId: q.organizationId, actorUserId: studentId };
    const events: Array<NewEvent & SessionEvent> = [
      { eventId: answer.answerId, type: SESSION_ANSWER_RECORDED, data: answer, metadata: meta },
    ];
    if (completesSession(q)) events.push(completionEvent(q, stored, answer, now, meta));
    return events;
  },
};

const completesSession = (q: QueuedSession) => q.answeredItemIds.length + 1 === q.itemIds.length;

/**
 * Records the child's answer to the current session item, on the session's stream (`sessionAnswerDecider`),
 * projected in the same transaction. Null when no session is queued for the child (the caller then answers
 * from the training day). Serialized per recipient by the slot's row lock: a repeated or parallel submit of the
 * same item finds it answered (409 item_not_current).
 */
export async function answerSessionItem(
  deps: { sql: Sql; store: EventStore },
  studentId: number,
  input: { itemId: string; selectedOptionKey: string },
  now: Date,
  /**
   * null: the caller read, with its other reads, that no session is queued (`sessionQueuedExpr`): answers
   * null at once, without a transaction (it would take no lock either: there is no row to lock). Otherwise the
   * session is read under its lock.
   */
  queuedBefore?: null,
): Promise<SessionAnswerOutcome | null> {
  if (queuedBefore === null) return null;
  const result = await handleCommand(deps, {
    context: sessionsCommands,
    decider: sessionAnswerDecider,
    command: { studentId, input, now },
    load: {
      name: 'the queued session under its slot’s lock, the current item, the answers a completion counts',
      inTransaction: true,
      async load(uow) {
        const q = await queuedSessionOf(uow.sql, studentId, true);
        if (!q) return { state: sessionAnswerDecider.initialState(), version: 'any' };
        const current = currentSessionItem(q);
        const [item, stored] = await Promise.all([
          current === input.itemId ? itemRowById(uow.sql, current) : null,
          current === input.itemId && completesSession(q) ? storedAnswersOf(uow.sql, q) : [],
        ]);
        // Expected `any`: the slot's lock serializes the child's answers; the answer's id makes it once.
        return { state: { queued: q, item, stored }, version: 'any', streamId: sessionStream(q.sessionId) };
      },
    },
  });
  const { queued: q, item } = result.state;
  if (!q || !item) return null;
  const answer = result.events.find(isOfType(SESSION_ANSWER_RECORDED))!.data;
  return {
    queued: {
      ...q,
      answeredItemIds: [...q.answeredItemIds, answer.itemId],
      correct: q.correct + (answer.correct ? 1 : 0),
    },
    answer,
    completed: completesSession(q),
    explanationAr: answer.correct ? null : item.explanation_ar,
  };
}

/** The answers of the slot stored before this one, as the completion counts them. */
async function storedAnswersOf(sql: AnySql, q: QueuedSession) {
  const rows = await sql<{ sub_skill_id: string; correct: boolean }[]>`
    select sub_skill_id, correct from ses_slot_answers where session_id = ${q.sessionId} and student_id = ${q.studentId}`;
  return rows.map((r) => ({ subSkillId: r.sub_skill_id, correct: r.correct }));
}

/** The completion with per-sub-skill counts of every answer (the ones stored and the last one). */
function completionEvent(
  q: QueuedSession,
  stored: SessionAnswerState['stored'],
  last: SessionAnswerRecorded,
  now: Date,
  meta: { organizationId: string; actorUserId: number },
): NewEvent & SessionEvent {
  const all = [...stored, last];
  const bySubSkill = [...new Set(all.map((a) => a.subSkillId))].sort().map((subSkillId) => {
    const of = all.filter((a) => a.subSkillId === subSkillId);
    return { subSkillId, answered: of.length, correct: of.filter((a) => a.correct).length };
  });
  const data: SessionSlotCompleted = {
    sessionId: q.sessionId,
    slotId: q.slotId,
    studentId: q.studentId,
    organizationId: q.organizationId,
    total: q.itemIds.length,
    correct: all.filter((a) => a.correct).length,
    bySubSkill,
    completedAt: now.toISOString(),
  };
  return {
    eventId: deterministicEventId('session-slot-completed', q.sessionId, q.studentId),
    type: SESSION_SLOT_COMPLETED,
    data,
    metadata: meta,
  };
}
