import { randomUUID } from 'node:crypto';
import { inTransaction, type Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { recordEvidence } from '../commands/recordEvidence';
import type { ScreeningWindow } from '../engine/calendar';
import {
  type AttemptHeader,
  ORAL_READING_STARTED,
  ORAL_READING_STOPPED,
  type PageCell,
  SITTING_ANSWER_RECORDED,
  SITTING_COMPLETED,
  SITTING_STARTED,
  SITTING_STOPPED,
  streams,
  WORD_LIST_READ,
} from '../events';
import type { DigitalSittingStarted, SittingAnswerRecorded } from '../events/sittingTypes';

/** Test fixtures: attempts written as the sitting, oral-reading and word-list commands write them (events.ts). */
export interface AttemptPlace {
  organizationId: string;
  schoolId: string;
  classId: string;
  studentId: number;
  grade?: number;
  academicYear?: string;
  window?: ScreeningWindow;
  startedAt?: string;
  startedBy?: number;
}

type Deps = { sql: Sql; store: EventStore };

const header = (place: AttemptPlace, kind: AttemptHeader['kind'], cell: PageCell): AttemptHeader => ({
  attemptId: randomUUID(),
  kind,
  cell,
  organizationId: place.organizationId,
  schoolId: place.schoolId,
  classId: place.classId,
  studentId: place.studentId,
  grade: place.grade ?? 2,
  academicYear: place.academicYear ?? '2026-2027',
  window: place.window ?? 'BOY',
  startedAt: place.startedAt ?? new Date().toISOString(),
  startedBy: place.startedBy ?? place.studentId,
  supersedesVoidId: null,
});

async function append(deps: Deps, streamId: string, type: string, data: object) {
  const result = await inTransaction(deps.sql, (uow) => recordEvidence(uow, deps.store, streamId, [{ type, data }]));
  if (result.kind !== 'appended') throw new Error(`fixture append ${type}: ${result.kind}`);
}

const FIXTURE_QUESTIONS = 10;

/** The shape `startSitting` (sittings/) writes: the header plus a plan of ten questions of one measure, and pins. */
function sittingStarted(h: AttemptHeader): DigitalSittingStarted {
  const plan = Array.from({ length: FIXTURE_QUESTIONS }, (_, i) => ({
    itemId: `itm_fixture_${i}`,
    itemVersion: 1,
    measureCode: 'fixture_measure',
    sectionKey: 'words' as const,
    formId: 'frm_fixture',
    formPosition: i + 1,
    passageId: null,
    itemPattern: 'fixture_pattern',
    subSkillId: 'fixture_sub_skill',
    breakBefore: false,
  }));
  return {
    ...(h as DigitalSittingStarted),
    mode: 'window',
    measures: ['fixture_measure'],
    plan,
    sections: [{ key: 'words', total: FIXTURE_QUESTIONS }],
    pins: {
      itemBankPinId: null,
      forms: [{ id: 'frm_fixture', externalId: 'fixture', version: 1 }],
      cutVersions: { organization: null, global: null },
      catalogVersion: 'fixture',
      cell: { source: 'global', kind: 'measures', measures: ['fixture_measure'], subSkillIds: [] },
    },
    subSkillIds: null,
  };
}

/** An open digital sitting; `answer` appends one answer, `complete` and `stop` end it. */
export async function startSitting(deps: Deps, place: AttemptPlace) {
  const h = header(place, 'digital_sitting', 'digital');
  const stream = streams.sitting(h.attemptId);
  await append(deps, stream, SITTING_STARTED, sittingStarted(h));
  return {
    attemptId: h.attemptId,
    answer: (position: number) =>
      append(deps, stream, SITTING_ANSWER_RECORDED, {
        attemptId: h.attemptId,
        position,
        itemId: `itm_fixture_${position}`,
        measureCode: 'fixture_measure',
        answer: 'a',
        correct: true,
        at: new Date().toISOString(),
      } satisfies SittingAnswerRecorded),
    complete: (result: Record<string, unknown> = { raw: 7, max: 10 }) =>
      append(deps, stream, SITTING_COMPLETED, { attemptId: h.attemptId, at: new Date().toISOString(), result }),
    stop: () =>
      append(deps, stream, SITTING_STOPPED, {
        attemptId: h.attemptId,
        at: new Date().toISOString(),
        reason: 'stopped_by_teacher',
      }),
  };
}

/** An open oral reading; `stop` ends it with a result. */
export async function startOralReading(deps: Deps, place: AttemptPlace) {
  const h = header(place, 'oral_text', 'oral_text');
  const stream = streams.oralReading(h.attemptId);
  await append(deps, stream, ORAL_READING_STARTED, h);
  return {
    attemptId: h.attemptId,
    stop: (result: Record<string, unknown> = { wcpm: 42 }) =>
      append(deps, stream, ORAL_READING_STOPPED, { attemptId: h.attemptId, at: new Date().toISOString(), result }),
  };
}

/** A word-list read: recorded whole, already done. */
export async function readWordList(
  deps: Deps,
  place: AttemptPlace,
  cell: 'oral_familiar_words' | 'oral_pseudowords' = 'oral_familiar_words',
  result: Record<string, unknown> = { wcpm: 30 },
) {
  const h = header(place, 'oral_word_list', cell);
  await append(deps, streams.wordListRead(h.attemptId), WORD_LIST_READ, { ...h, result });
  return { attemptId: h.attemptId };
}
