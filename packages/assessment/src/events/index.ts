/**
 * The assessment context's events. Every attempt is its own stream: `sitting-<uuid>` (a digital diagnostic
 * sitting), `orf-<uuid>` (an oral reading), `wlread-<uuid>` (a word-list read). Each stream opens with an
 * event carrying the `AttemptHeader` and may end with a void. Raw facts only: scores are derived on read and
 * on replay with the pinned versions named on the events.
 */
import { eventsAs, type RecordedEvent } from '@qiraa/eventstore';
import type { ScreeningWindow } from '../engine/calendar';
import type { OralReadingMarkedData, OralReadingStartedData, OralReadingStoppedData } from './orfEvents';
import type { ReadCutPin, WordListCell } from './readEvents';
import type { DigitalSittingStarted, SittingAnswerRecorded } from './sittingTypes';

export const SITTING_STARTED = 'SittingStarted';
export const SITTING_ANSWER_RECORDED = 'SittingAnswerRecorded';
export const SITTING_COMPLETED = 'SittingCompleted';
export const SITTING_STOPPED = 'SittingStopped';
export const ORAL_READING_STARTED = 'OralReadingStarted';
export const ORAL_READING_MARKED = 'OralReadingMarked';
export const ORAL_READING_STOPPED = 'OralReadingStopped';
export const WORD_LIST_READ = 'WordListRead';
export const ATTEMPT_VOIDED = 'AttemptVoided';

/** The kinds of attempt a void names (spec: the void body's `kind`). */
export const ATTEMPT_KINDS = ['digital_sitting', 'oral_text', 'oral_word_list'] as const;
export type AttemptKind = (typeof ATTEMPT_KINDS)[number];

/** The four cells of the teacher assessment page. */
export const PAGE_CELLS = ['digital', 'oral_text', 'oral_familiar_words', 'oral_pseudowords'] as const;
export type PageCell = (typeof PAGE_CELLS)[number];

export const VOID_REASONS = ['student_not_ready', 'technical_interruption', 'started_by_mistake', 'other'] as const;
export type VoidReason = (typeof VOID_REASONS)[number];

/** What every attempt's first event says about it: the row of `asm_attempts`. */
export interface AttemptHeader {
  attemptId: string;
  kind: AttemptKind;
  cell: PageCell;
  organizationId: string;
  schoolId: string;
  classId: string;
  studentId: number;
  grade: number;
  academicYear: string;
  window: ScreeningWindow;
  startedAt: string;
  /** The adult who started it (oral reading, word list), or the student (digital sitting). */
  startedBy: number;
  /** The void this attempt replaces: the latest void of the same student, window and cell (server side). */
  supersedesVoidId: number | null;
}

/**
 * What the teacher page shows of an ended attempt (`asm_attempts.result`): derived by the ending command from
 * the raw counts it also stores, with the versions it pinned. Shape per kind: docs/assessment.md.
 */
export type AttemptResultSummary = Record<string, unknown>;

/** How an open attempt ended without completing (a void also ends an open sitting: `voided`). */
export type StopReason = 'stopped_by_teacher' | 'window_closed' | 'voided';

/** First event of `sitting-<uuid>`. Kind-specific fields are the sitting's pins and plan. */
export interface SittingStarted extends AttemptHeader {
  kind: 'digital_sitting';
  cell: 'digital';
  [key: string]: unknown;
}
export interface SittingEnded {
  attemptId: string;
  at: string;
  result?: AttemptResultSummary | null;
  [key: string]: unknown;
}
export interface SittingStopped extends SittingEnded {
  reason: StopReason;
}

/** First event of `orf-<uuid>`. */
export interface OralReadingStarted extends AttemptHeader {
  kind: 'oral_text';
  cell: 'oral_text';
  [key: string]: unknown;
}
export interface OralReadingStopped {
  attemptId: string;
  at: string;
  result?: AttemptResultSummary | null;
  [key: string]: unknown;
}

/** The one event of `wlread-<uuid>`: a word-list read is recorded whole, already ended. */
export interface WordListRead extends AttemptHeader {
  kind: 'oral_word_list';
  cell: 'oral_familiar_words' | 'oral_pseudowords';
  result?: AttemptResultSummary | null;
  [key: string]: unknown;
}

/** `WordListRead` as this context writes it: the header, the list version, the raw counts, the pinned cuts. */
export interface WordListReadData extends WordListRead {
  cell: WordListCell;
  wordListId: string;
  wordListVersion: number;
  wordCount: number;
  timing: { timed: boolean; durationSeconds: number | null };
  lastWordIndex: number | null;
  elapsedSeconds: number | null;
  errorIndices: number[];
  attempted: number;
  errors: number;
  droppedMarks: number;
  cut: ReadCutPin | null;
  rateCut: string;
  result: Record<string, unknown>;
}

/** Last event of a voided attempt's stream. */
export interface AttemptVoided {
  attemptId: string;
  kind: AttemptKind;
  voidId: number;
  reason: VoidReason;
  actorUserId: number;
  /** The attempt was still open and the void ended it. */
  endedActiveSitting: boolean;
  at: string;
}

export const streams = {
  sitting: (attemptId: string) => `sitting-${attemptId}`,
  oralReading: (attemptId: string) => `orf-${attemptId}`,
  wordListRead: (attemptId: string) => `wlread-${attemptId}`,
  ofKind: (kind: AttemptKind, attemptId: string) =>
    kind === 'digital_sitting'
      ? `sitting-${attemptId}`
      : kind === 'oral_text'
        ? `orf-${attemptId}`
        : `wlread-${attemptId}`,
};

/** Events that open an attempt (each carries the `AttemptHeader`). */
export const ATTEMPT_OPENING_EVENTS = [SITTING_STARTED, ORAL_READING_STARTED, WORD_LIST_READ] as const;

/** The evidence a downstream context (decisions) consumes, voids included. */
export const EVIDENCE_EVENT_TYPES = [
  SITTING_STARTED,
  SITTING_ANSWER_RECORDED,
  SITTING_COMPLETED,
  SITTING_STOPPED,
  ORAL_READING_STARTED,
  ORAL_READING_MARKED,
  ORAL_READING_STOPPED,
  WORD_LIST_READ,
  ATTEMPT_VOIDED,
] as const;

/**
 * Every event of this context's streams, typed: `type` discriminates `data` (docs/architecture.md, "Typed
 * events"). Add an event here with its constant and its data interface.
 */
export type AssessmentEvent =
  | { type: typeof SITTING_STARTED; data: DigitalSittingStarted }
  | { type: typeof SITTING_ANSWER_RECORDED; data: SittingAnswerRecorded }
  | { type: typeof SITTING_COMPLETED; data: SittingEnded }
  | { type: typeof SITTING_STOPPED; data: SittingStopped }
  | { type: typeof ORAL_READING_STARTED; data: OralReadingStartedData }
  | { type: typeof ORAL_READING_MARKED; data: OralReadingMarkedData }
  | { type: typeof ORAL_READING_STOPPED; data: OralReadingStoppedData }
  | { type: typeof WORD_LIST_READ; data: WordListReadData }
  | { type: typeof ATTEMPT_VOIDED; data: AttemptVoided };

/** Events read from the store as this context's (the one typed boundary: `eventsAs`). */
export const assessmentEvents = (events: readonly RecordedEvent[]) => eventsAs<AssessmentEvent>(events);
