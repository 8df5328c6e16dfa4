import type { AnySql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import type { BandBasis, ReadBand } from '../engine/bandRead';
import type { ScreeningWindow } from '../engine/calendar';
import type { AttemptKind, PageCell } from '../events';

export interface EvidenceFilter {
  academicYear?: string;
  window?: ScreeningWindow;
  /** The event store, when it is not the PostgreSQL one the read models share (its streams are then read through the port). */
  store?: Pick<EventStore, 'readStream' | 'readStreamsWithin'>;
  /** The connection pool, when `sql` is a transaction: the content catalog is cached per pool. */
  pool?: AnySql;
}

/** One question of an ended digital sitting, with the sub-skill and measure its plan pinned. */
export interface QuestionEvidence {
  /** 0-based position in the sitting's plan. */
  position: number;
  itemId: string;
  measureCode: string;
  subSkillId: string;
  /** null: not answered before the sitting ended. */
  correct: boolean | null;
  /** The `SittingAnswerRecorded` event id; null when unanswered. */
  eventId: string | null;
}

/** A measure of an ended sitting, scored with the cut versions the sitting pinned. */
export interface MeasureEvidence {
  measureCode: string;
  raw: number;
  max: number;
  level: 1 | 2 | 3 | 4 | null;
  complete: boolean;
  provisional: boolean;
  cutVersion: string | null;
}

/** A digital sitting that ended (completed, stopped by the teacher, or ended by the window's close). */
export interface SittingEvidence {
  kind: 'digital_sitting';
  attemptId: string;
  academicYear: string;
  window: ScreeningWindow;
  grade: number;
  mode: string;
  startedAt: string;
  endedAt: string;
  endReason: string;
  /** `SittingStarted` (plan and pins) and the ending event. */
  startedEventId: string;
  endedEventId: string;
  /** The sub-skills the plan covers (answered or not). */
  subSkillIds: string[];
  questions: QuestionEvidence[];
  measures: MeasureEvidence[];
}

/** An oral reading that stopped, or a word-list read: raw counts and what the pinned cut table derives. */
export interface ReadEvidence {
  kind: 'oral_text' | 'oral_word_list';
  attemptId: string;
  cell: Exclude<PageCell, 'digital'>;
  academicYear: string;
  window: ScreeningWindow;
  grade: number;
  /** When the read ended (the stop, or the word-list read itself). */
  at: string;
  /** Every event of the attempt's stream (opening, marks, stop). */
  eventIds: string[];
  timed: boolean;
  attempted: number;
  errors: number;
  correct: number;
  elapsedSeconds: number | null;
  wcpm: number | null;
  accuracy: number;
  accuracyBand: ReadBand | null;
  rateBand: ReadBand | null;
  band: ReadBand | null;
  bandBasis: BandBasis | null;
  provisional: boolean;
  cutVersion: string | null;
  /** The organization of the pinned cut table (null: the global one, or no pin; absent on older fixtures). */
  cutOrganizationId?: string | null;
}

/** A voided attempt: out of every decision; what it had covered, and the void that took it out. */
export interface VoidedEvidence {
  attemptId: string;
  kind: AttemptKind;
  cell: PageCell;
  academicYear: string;
  window: ScreeningWindow;
  /** The plan's sub-skills of a digital sitting; [] for a read (its cell names what it covered). */
  subSkillIds: string[];
  voidEventId: string;
  voidId: number;
  voidedAt: string;
  /** Every event of the attempt's stream (what a decision built on it lists among its evidence). */
  eventIds?: string[];
}

export interface StudentEvidence {
  studentId: number;
  sittings: SittingEvidence[];
  reads: ReadEvidence[];
  voided: VoidedEvidence[];
  /** Windows whose every attempt was voided (the no-evidence row of skill status). */
  allVoidedWindows: { academicYear: string; window: ScreeningWindow }[];
}
