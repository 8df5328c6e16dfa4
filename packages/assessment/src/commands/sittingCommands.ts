import { type Decider, handleCommand } from '@qiraa/command-kit';
import { loadCatalog } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import { deterministicEventId, type EventStore, type NewEvent } from '@qiraa/eventstore';
import { assessmentCommands } from '../commandContext';
import { foldOnto, foldSitting, servedPosition } from '../engine/foldSitting';
import { resultSummaryOf, scoreSitting } from '../engine/scoreSitting';
import { SITTING_ANSWER_RECORDED, SITTING_COMPLETED, SITTING_STOPPED, type SittingStopped, streams } from '../events';
import type { SittingAnswerRecorded, SittingFold } from '../events/sittingTypes';
import { pinnedCuts } from '../queries/cutTables';
import { type WindowCalendarState, windowCalendarState, windowStateOf } from '../queries/windowState';
import { type AnswerFacts, readAnswerFacts } from './answerFacts';
import { SittingRefused } from './refusal';

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
 * The event that ends an open sitting whose window is no longer open (its calendar end passed, or an
 * administrator closed it): `SittingStopped { reason: window_closed }` under one deterministic id, so the
 * window-close job and a request never stop it twice with the same event. Null while its window is open.
 */
async function windowClosedStop(
  deps: Deps,
  fold: SittingFold,
  calendar: WindowCalendarState,
  now: Date,
): Promise<NewEvent<SittingStopped> | null> {
  const s = fold.started;
  if (calendar.openWindow === s.window) return null;
  const ending = { ...fold, status: 'stopped' as const, endReason: 'window_closed' as const };
  return {
    eventId: deterministicEventId('sitting-stopped', fold.attemptId, 'window_closed'),
    type: SITTING_STOPPED,
    data: {
      attemptId: fold.attemptId,
      at: now.toISOString(),
      reason: 'window_closed',
      result: await summaryAt(deps, ending),
    },
    metadata: { organizationId: s.organizationId },
  };
}

/** A resume's window-close check as the decider takes it: the calendar now. */
export interface StopClosedSitting {
  readonly calendar: WindowCalendarState;
  readonly now: Date;
}

/**
 * A resume's rule: an open sitting whose window is no longer open ends with `SittingStopped { reason:
 * window_closed }` (`windowClosedStop`); an ended or voided one, or one whose window is open, is nothing to do.
 * `decide` reads the pinned cut table and the catalog only to write the stop's summary (`deps.sql`).
 */
export const stopClosedSittingDecider = (
  deps: Deps,
): Decider<StopClosedSitting, NewEvent<SittingStopped>, SittingFold | null> => ({
  initialState: () => null,
  evolve: (fold, event) => (fold ? foldOnto(fold, [event]) : foldSitting([event])),
  async decide({ calendar, now }, fold) {
    if (fold?.status !== 'in_progress' || fold.voided) return [];
    const stop = await windowClosedStop(deps, fold, calendar, now);
    return stop ? [stop] : [];
  },
});

/**
 * An open sitting whose window closed is stopped here and the request refused `window_closed`: decided first on
 * the sitting as the resume read it, on its stream after a conflict (another writer ended it meanwhile: nothing
 * more to write, the window is closed all the same).
 */
async function stopIfWindowClosed(deps: Deps, fold: SittingFold, calendar: WindowCalendarState, now: Date) {
  if (calendar.openWindow === fold.started.window) return;
  await handleCommand(deps, {
    context: assessmentCommands,
    streamId: streams.sitting(fold.attemptId),
    decider: stopClosedSittingDecider(deps),
    command: { calendar, now },
    load: {
      name: 'the sitting as the resume read it (its stream after a conflict)',
      inTransaction: false,
      async load(attempt) {
        const state = attempt === 0 ? fold : await loadSitting(deps, fold.attemptId);
        return { state, version: state?.streamVersion ?? 0n };
      },
    },
    // Stopped under this id already (a resume sent twice): the stop stands.
    onDuplicate: 'done',
    onConflict: () => new SittingRefused('window_closed'),
  });
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

/** An answer as the decider takes it. */
export interface AnswerSitting {
  readonly attemptId: string;
  readonly itemId: string;
  readonly answer: string;
  readonly now: Date;
}

/** What an answer is decided on: the sitting (its row or its stream's fold) and the facts read beside it. */
export interface AnswerState {
  readonly fold: SittingFold | null;
  readonly facts: Pick<AnswerFacts, 'item' | 'window'> | null;
}

/**
 * The answer's rules, in order: an ended sitting refuses (voided, stopped); the same answer again is nothing
 * to do, another answer to an answered question `already_answered`; a completed sitting, a question not the
 * served one, then a closed window (which stops the sitting: its `SittingStopped` is the decision, and the
 * command answers `window_closed` once it is stored), an answer not among the item's options. Else the
 * scored answer, plus `SittingCompleted` with the result summary when it is the last. `decide` reads the pinned
 * cut table and the catalog only to write a summary (`deps.sql`).
 */
export const answerSittingDecider = (deps: Deps): Decider<AnswerSitting, NewEvent, AnswerState> => ({
  initialState: () => ({ fold: null, facts: null }),
  evolve: (state, event) => (state.fold ? { ...state, fold: foldOnto(state.fold, [event]) } : state),
  async decide({ attemptId, itemId, answer, now }, { fold, facts }) {
    if (!fold || !facts) throw new Error(`sitting ${attemptId} vanished`);
    refuseEnded(fold);
    const plan = fold.started.plan;
    const previous = [...fold.answers.values()].find((a) => a.itemId === itemId);
    if (previous) {
      if (previous.answer === answer) return [];
      throw new SittingRefused('already_answered');
    }
    if (fold.status === 'done') throw new SittingRefused('sitting_completed');
    const position = servedPosition(fold);
    const served = plan[position];
    if (!served || served.itemId !== itemId) throw new SittingRefused('not_the_served_item');
    const s = fold.started;
    const stop = await windowClosedStop(
      deps,
      fold,
      windowStateOf(facts.window, s.organizationId, s.academicYear, now),
      now,
    );
    if (stop) return [stop];

    const item = facts.item;
    if (!item) throw new Error(`item ${served.itemId} of sitting ${attemptId} is missing`);
    if (!item.optionKeys.includes(answer)) throw new SittingRefused('not_an_option');

    const recorded: SittingAnswerRecorded = {
      attemptId,
      position,
      itemId: served.itemId,
      measureCode: served.measureCode,
      answer,
      correct: answer === item.correctOptionKey,
      at: now.toISOString(),
    };
    const metadata = { actorUserId: s.studentId, organizationId: s.organizationId };
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
    return events;
  },
});

/**
 * Records the child's answer to the served question, scored on the server against the item's correct option;
 * the last answer also completes the sitting (`SittingCompleted` with the result summary) in the same append.
 * The answer's event id is a function of the sitting and the position, so a re-sent identical answer writes
 * nothing and answers the same state. The append expects the stream version it decided on and goes out with
 * its projections and COMMIT (`pipelined: true`): a concurrent write (another answer, a void, a window
 * close) makes it decide again on the new stream.
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
  const { kind, state, events } = await handleCommand(deps, {
    context: assessmentCommands,
    streamId: streams.sitting(attemptId),
    decider: answerSittingDecider(deps),
    command: { attemptId, itemId: input.itemId, answer: input.answer, now },
    load: {
      name: 'the sitting’s row with the answer’s facts (its stream after a conflict)',
      inTransaction: false,
      async load(attempt) {
        const facts = attempt === 0 && read ? read : await readAnswerFacts(deps.sql, attemptId, input.itemId);
        const row = facts.sitting;
        const fold =
          attempt === 0 && row && row.streamVersion !== null
            ? { ...row, streamVersion: row.streamVersion }
            : await loadSitting(deps, attemptId);
        if (!fold) throw new Error(`sitting ${attemptId} vanished`);
        return { state: { fold, facts }, version: fold.streamVersion };
      },
    },
    pipelined: true,
    attempts: ATTEMPTS,
    onConflict: () => new SittingRefused('concurrent_answer'),
  });
  if (kind === 'appended' && events.some((e) => e.type === SITTING_STOPPED)) throw new SittingRefused('window_closed');
  // The decider refuses without a sitting, so a command that got here has one.
  return state.fold as SittingFold;
}
