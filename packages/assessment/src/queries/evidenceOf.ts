import { type Catalog, loadCatalog } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import { isOfType, type Recorded, readStreamsThrough } from '@qiraa/eventstore';
import { type BandedRead, bandedRead } from '../engine/bandedRead';
import type { ScreeningWindow } from '../engine/calendar';
import { countsOfStop } from '../engine/oralReadingState';
import { countRead, type ReadCounts } from '../engine/readCounts';
import { scoreSitting } from '../engine/scoreSitting';
import {
  type AssessmentEvent,
  ATTEMPT_VOIDED,
  type AttemptKind,
  assessmentEvents,
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
import type { OralReadingStoppedData } from '../events/orfEvents';
import type { ReadCell } from '../events/readEvents';
import type { SittingAnswerRecorded } from '../events/sittingTypes';
import { scoringStatusOf } from './cellMeasure';
import { pinnedCuts } from './cutTables';
import type { EvidenceFilter, ReadEvidence, SittingEvidence, StudentEvidence, VoidedEvidence } from './evidenceTypes';
import { pinnedReadCuts } from './readCuts';

interface AttemptRow {
  attempt_id: string;
  kind: AttemptKind;
  cell: PageCell;
  academic_year: string;
  evidence_window: ScreeningWindow;
  status: 'in_progress' | 'done' | 'stopped';
  void_id: string | null;
}

type StreamEvent = Recorded<AssessmentEvent>;

/**
 * A student's evidence, for the decision engine and its replay: every ended, non-voided attempt (digital
 * sittings with per-question correctness, sub-skill and measure from the pinned plan, and the measure results
 * under the pinned cut versions; oral readings and word-list reads with raw counts and the bands of the pinned
 * cut table), with the ids of the events each comes from. Voided attempts are left out and listed apart, with
 * the windows whose every attempt was voided. An attempt still open is not evidence yet.
 *
 * `asm_attempts` says which attempts exist; their streams are the facts (one query on the PostgreSQL store).
 */
export async function evidenceOf(
  sql: AnySql,
  studentId: number,
  filter: EvidenceFilter = {},
): Promise<StudentEvidence> {
  const attempts = await sql<AttemptRow[]>`
    select attempt_id, kind, cell, academic_year, evidence_window, status, void_id::text
    from asm_attempts
    where student_id = ${studentId}
      and (${filter.academicYear ?? null}::text is null or academic_year = ${filter.academicYear ?? null})
      and (${filter.window ?? null}::text is null or evidence_window = ${filter.window ?? null})
    order by started_at, attempt_id`;
  const evidence: StudentEvidence = { studentId, sittings: [], reads: [], voided: [], allVoidedWindows: [] };
  if (attempts.length === 0) return evidence;
  const wanted = attempts.filter((a) => a.void_id !== null || a.status !== 'in_progress');
  const events = await streamsOf(
    sql,
    wanted.map((a) => streams.ofKind(a.kind, a.attempt_id)),
    filter.store,
  );
  const pool = filter.pool ?? sql;
  const catalog = await loadCatalog(pool);
  for (const a of wanted) {
    const stream = events.get(streams.ofKind(a.kind, a.attempt_id)) ?? [];
    if (a.void_id !== null) {
      const voided = voidedOf(a, stream);
      if (voided) evidence.voided.push(voided);
    } else if (a.kind === 'digital_sitting') {
      const sitting = await sittingOf(sql, catalog, a, stream);
      if (sitting) evidence.sittings.push(sitting);
    } else {
      const read = await readOf(sql, pool, a, stream);
      if (read) evidence.reads.push(read);
    }
  }
  const windows = new Map<string, { academicYear: string; window: ScreeningWindow; live: boolean }>();
  for (const a of attempts) {
    const key = `${a.academic_year}/${a.evidence_window}`;
    const seen = windows.get(key) ?? { academicYear: a.academic_year, window: a.evidence_window, live: false };
    seen.live ||= a.void_id === null;
    windows.set(key, seen);
  }
  evidence.allVoidedWindows = [...windows.values()]
    .filter((w) => !w.live)
    .map(({ academicYear, window }) => ({ academicYear, window }));
  return evidence;
}

/** Every event of the given streams, in stream order. */
async function streamsOf(
  sql: AnySql,
  ids: string[],
  store: EvidenceFilter['store'],
): Promise<Map<string, StreamEvent[]>> {
  const byStream = new Map<string, StreamEvent[]>();
  if (ids.length === 0) return byStream;
  for (const e of assessmentEvents(await readStreamsThrough(store, sql, ids))) {
    const list = byStream.get(e.streamId) ?? [];
    list.push(e);
    byStream.set(e.streamId, list);
  }
  return byStream;
}

function voidedOf(a: AttemptRow, stream: StreamEvent[]): VoidedEvidence | null {
  const voidEvent = stream.find(isOfType(ATTEMPT_VOIDED));
  if (!voidEvent) return null;
  const data = voidEvent.data;
  const started = stream.find(isOfType(SITTING_STARTED))?.data;
  return {
    attemptId: a.attempt_id,
    kind: a.kind,
    cell: a.cell,
    academicYear: a.academic_year,
    window: a.evidence_window,
    subSkillIds: started ? [...new Set(started.plan.map((q) => q.subSkillId))].sort() : [],
    voidEventId: voidEvent.eventId,
    voidId: data.voidId,
    voidedAt: data.at,
    eventIds: stream.map((e) => e.eventId),
  };
}

async function sittingOf(
  sql: AnySql,
  catalog: Catalog,
  a: AttemptRow,
  stream: StreamEvent[],
): Promise<SittingEvidence | null> {
  const startedEvent = stream.find(isOfType(SITTING_STARTED));
  const endEvent = stream.find(isOfType(SITTING_COMPLETED, SITTING_STOPPED));
  if (!startedEvent || !endEvent) return null;
  const started = startedEvent.data;
  const answers = new Map<number, SittingAnswerRecorded>();
  const answerIds = new Map<number, string>();
  for (const e of stream) {
    if (e.type !== SITTING_ANSWER_RECORDED) continue;
    const answer = e.data;
    if (answers.has(answer.position)) continue;
    answers.set(answer.position, answer);
    answerIds.set(answer.position, e.eventId);
  }
  const completed = endEvent.type === SITTING_COMPLETED;
  const endReason = endEvent.type === SITTING_COMPLETED ? 'completed' : endEvent.data.reason;
  const cuts = await pinnedCuts(sql, started.pins.cutVersions, started.grade, started.window);
  const result = scoreSitting(
    {
      attemptId: a.attempt_id,
      started,
      answers,
      status: completed ? 'done' : 'stopped',
      endReason: endReason as 'completed',
    },
    cuts,
    catalog,
  );
  return {
    kind: 'digital_sitting',
    attemptId: a.attempt_id,
    academicYear: started.academicYear,
    window: started.window,
    grade: started.grade,
    mode: started.mode,
    startedAt: started.startedAt,
    endedAt: String(endEvent.data.at),
    endReason,
    startedEventId: startedEvent.eventId,
    endedEventId: endEvent.eventId,
    subSkillIds: [...new Set(started.plan.map((q) => q.subSkillId))].sort(),
    questions: started.plan.map((q, position) => ({
      position,
      itemId: q.itemId,
      measureCode: q.measureCode,
      subSkillId: q.subSkillId,
      correct: answers.get(position)?.correct ?? null,
      eventId: answerIds.get(position) ?? null,
    })),
    measures: result.measures.map((m) => ({
      measureCode: m.measureCode,
      raw: m.raw,
      max: m.max,
      level: m.level,
      complete: m.complete,
      provisional: m.provisional,
      cutVersion: m.cutVersion,
    })),
  };
}

async function readOf(sql: AnySql, pool: AnySql, a: AttemptRow, stream: StreamEvent[]): Promise<ReadEvidence | null> {
  let counts: ReadCounts;
  let pin: OralReadingStoppedData['cut'];
  let stored: Record<string, unknown>;
  let grade: number;
  let at: string;
  if (a.kind === 'oral_text') {
    const started = stream.find(isOfType(ORAL_READING_STARTED))?.data;
    const stop = stream.find(isOfType(ORAL_READING_STOPPED))?.data;
    if (!started || !stop || stop.lastWordIndex === undefined) return null;
    const counted = countsOfStop({ started }, stop);
    if (!counted.ok) return null;
    counts = counted.counts;
    pin = stop.cut;
    stored = stop.result;
    grade = started.grade;
    at = stop.at;
  } else {
    const read = stream.find(isOfType(WORD_LIST_READ))?.data;
    // A read without its raw counts (a test fixture's) is no evidence.
    if (!read?.timing) return null;
    const counted = countRead({
      wordCount: read.wordCount,
      timing: read.timing,
      lastWordIndex: read.lastWordIndex,
      elapsedSeconds: read.elapsedSeconds,
      errorIndices: read.errorIndices,
    });
    if (!counted.ok) return null;
    counts = counted.counts;
    pin = read.cut;
    stored = read.result;
    grade = read.grade;
    at = read.startedAt;
  }
  const cell = a.cell as ReadCell;
  const table = await pinnedReadCuts(sql, pin, { cell, grade, window: a.evidence_window });
  // A pin whose rows are gone: the summary stored with the read is all that is left of its bands.
  const read: Omit<BandedRead, 'cut' | 'rateCut' | 'skippedReason'> =
    pin && !table
      ? (stored as unknown as BandedRead)
      : bandedRead(counts, table, await scoringStatusOf(pool, cell, grade));
  return {
    kind: a.kind as 'oral_text' | 'oral_word_list',
    attemptId: a.attempt_id,
    cell,
    academicYear: a.academic_year,
    window: a.evidence_window,
    grade,
    at,
    eventIds: stream.filter((e) => e.type !== ATTEMPT_VOIDED).map((e) => e.eventId),
    timed: counts.timed,
    attempted: counts.attempted,
    errors: counts.errors,
    correct: counts.correct,
    elapsedSeconds: counts.elapsedSeconds,
    wcpm: read.wcpm,
    accuracy: read.accuracy,
    accuracyBand: read.accuracyBand,
    rateBand: read.rateBand,
    band: read.band,
    bandBasis: read.bandBasis,
    provisional: read.provisional,
    cutVersion: pin?.version ?? null,
    cutOrganizationId: pin?.organizationId ?? null,
  };
}
