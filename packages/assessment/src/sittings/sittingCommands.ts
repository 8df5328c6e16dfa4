import { loadCatalog } from '@qiraa/content';
import { inTransaction, type Sql } from '@qiraa/db';
import { deterministicEventId, type EventStore, type NewEvent, NOT_APPENDED } from '@qiraa/eventstore';
import { recordEvidence } from '../commands/recordEvidence';
import { SITTING_ANSWER_RECORDED, SITTING_COMPLETED, SITTING_STOPPED, type SittingStopped, streams } from '../events';
import { type WindowCalendarState, windowCalendarState, windowStateOf } from '../windows/windowState';
import { type AnswerFacts, readAnswerFacts } from './answerFacts';
import { pinnedCuts } from './cutTables';
import { foldOnto, foldSitting, servedPosition } from './foldSitting';
import { SittingRefused } from './refusal';
import { resultSummaryOf, scoreSitting } from './scoreSitting';
import type { SittingAnswerRecorded, SittingFold } from './sittingTypes';

type Deps = { sql: Sql; store: EventStore };

/** The sitting as its stream says (commands decide on the stream, not on the read model); null when absent. */
export async function loadSitting(deps: Deps, attemptId: string): Promise<SittingFold | null> {
  return foldSitting(await deps.store.readStream(streams.sitting(attemptId)));
}

/** The teacher page's summary of the sitting as it would end now (`end` given by the ending event). */
async function summaryAt(deps: Deps, fold: SittingFold) {
  const s = fold.started;
  const [cuts, catalog] = await Promise.all([
    pinnedCuts(deps.sql, s.pins.cutVersions, s.grade, s.window),
    loadCatalog(deps.sql),
  ]);
  return resultSummaryOf(scoreSitting(fold, cuts, catalog));
}

/** Voided, stopped or closed sittings take nothing more. */
function refuseEnded(fold: SittingFold): void {
  if (fold.voided || fold.endReason === 'voided') throw new SittingRefused('voided');
  if (fold.status === 'stopped')
    throw new SittingRefused(fold.endReason === 'window_closed' ? 'window_closed' : 'sitting_stopped');
}

/**
 * An open sitting whose window is no longer open (its calendar end passed, or an administrator closed it) is
 * ended here with `SittingStopped { reason: window_closed }` (one deterministic id, so the window-close job
 * and this never stop it twice with the same event) and the request is refused `window_closed`.
 */
async function stopIfWindowClosed(deps: Deps, fold: SittingFold, calendar: WindowCalendarState, now: Date) {
  const s = fold.started;
  if (calendar.openWindow === s.window) return;
  const ending = { ...fold, status: 'stopped' as const, endReason: 'window_closed' as const };
  const stopped: SittingStopped = {
    attemptId: fold.attemptId,
    at: now.toISOString(),
    reason: 'window_closed',
    result: await summaryAt(deps, ending),
  };
  await inTransaction(deps.sql, (uow) =>
    recordEvidence(
      uow,
      deps.store,
      streams.sitting(fold.attemptId),
      [
        {
          eventId: deterministicEventId('sitting-stopped', fold.attemptId, 'window_closed'),
          type: SITTING_STOPPED,
          data: stopped,
          metadata: { organizationId: s.organizationId },
        },
      ],
      fold.streamVersion,
    ),
  );
  throw new SittingRefused('window_closed');
}

/** Resume: the sitting's state; an open one whose window closed is stopped first (409 window_closed). */
export async function resumeSitting(deps: Deps, fold: SittingFold, now = new Date()): Promise<SittingFold> {
  refuseEnded(fold);
  if (fold.status === 'in_progress') {
    const s = fold.started;
    await stopIfWindowClosed(
      deps,
      fold,
      await windowCalendarState(deps.sql, s.organizationId, s.academicYear, now),
      now,
    );
  }
  return fold;
}

export interface AnswerInput {
  itemId: string;
  answer: string;
  now?: Date;
}

const ATTEMPTS = 4;

/**
 * Records the child's answer to the served question, scored on the server against the item's correct option;
 * the last answer also completes the sitting (`SittingCompleted` with the result summary) in the same append.
 * The answer's event id is a function of the sitting and the position, so a re-sent identical answer writes
 * nothing and answers the same state. The append expects the stream version it decided on: a concurrent
 * write (another answer, a void, a window close) makes it decide again on the new stream.
 *
 * `read` is what the route read in one statement (`readAnswerFacts`): the first decision is taken on the
 * sitting's read model row at the stream version it reflects; a refused append (the stream moved) decides
 * again on the stream itself, as does a row without a stream version.
 */
export async function answerSitting(
  deps: Deps,
  attemptId: string,
  input: AnswerInput,
  read?: AnswerFacts,
): Promise<SittingFold> {
  const now = input.now ?? new Date();
  let facts = read ?? (await readAnswerFacts(deps.sql, attemptId, input.itemId));
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (attempt > 0) facts = await readAnswerFacts(deps.sql, attemptId, input.itemId);
    const row = facts.sitting;
    const fold =
      attempt === 0 && row && row.streamVersion !== null
        ? { ...row, streamVersion: row.streamVersion }
        : await loadSitting(deps, attemptId);
    if (!fold) throw new Error(`sitting ${attemptId} vanished`);
    refuseEnded(fold);
    const plan = fold.started.plan;
    const previous = [...fold.answers.values()].find((a) => a.itemId === input.itemId);
    if (previous) {
      if (previous.answer === input.answer) return fold;
      throw new SittingRefused('already_answered');
    }
    if (fold.status === 'done') throw new SittingRefused('sitting_completed');
    const position = servedPosition(fold);
    const served = plan[position];
    if (!served || served.itemId !== input.itemId) throw new SittingRefused('not_the_served_item');
    const s = fold.started;
    await stopIfWindowClosed(deps, fold, windowStateOf(facts.window, s.organizationId, s.academicYear, now), now);

    const item = facts.item;
    if (!item) throw new Error(`item ${served.itemId} of sitting ${attemptId} is missing`);
    if (!item.optionKeys.includes(input.answer)) throw new SittingRefused('not_an_option');

    const recorded: SittingAnswerRecorded = {
      attemptId,
      position,
      itemId: served.itemId,
      measureCode: served.measureCode,
      answer: input.answer,
      correct: input.answer === item.correctOptionKey,
      at: now.toISOString(),
    };
    const metadata = { actorUserId: fold.started.studentId, organizationId: fold.started.organizationId };
    const events: NewEvent[] = [
      {
        eventId: deterministicEventId('sitting-answer', attemptId, position),
        type: SITTING_ANSWER_RECORDED,
        data: recorded,
        metadata,
      },
    ];
    const after: SittingFold = { ...fold, answers: new Map(fold.answers).set(position, recorded) };
    if (servedPosition(after) === plan.length) {
      const completed = { ...after, status: 'done' as const, endReason: 'completed' as const };
      events.push({
        eventId: deterministicEventId('sitting-completed', attemptId),
        type: SITTING_COMPLETED,
        data: { attemptId, at: now.toISOString(), result: await summaryAt(deps, completed) },
        metadata,
      });
    }
    const result = await inTransaction(deps.sql, (uow) =>
      recordEvidence(uow, deps.store, streams.sitting(attemptId), events, fold.streamVersion, { last: true }),
    ).catch((error: unknown) => {
      // Sent with its projection and COMMIT, a conflicting append rolls back and throws: decide again.
      if ((error as { code?: string })?.code === NOT_APPENDED) return { kind: 'conflict' as const };
      throw error;
    });
    // The stream is the decided-on fold plus exactly these events (the append expected its version).
    if (result.kind === 'appended') return foldOnto(fold, result.events);
    // A conflict or a duplicate: someone wrote meanwhile (maybe this very answer); decide again on the stream.
  }
  throw new SittingRefused('concurrent_answer');
}
