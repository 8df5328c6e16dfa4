import type { ReadingPassage } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import { type BandedRead, bandedRead } from '../engine/bandedRead';
import type { OralReadingState } from '../engine/oralReadingState';
import { countsOfStop } from '../engine/oralReadingState';
import { scoringStatusOf } from './cellMeasure';
import { pinnedReadCuts } from './readCuts';

/**
 * The reading as the teacher's screen shows it. Scores are derived from the stored raw counts with the pinned
 * cut table (never the current one); until the stop every derived field is null.
 */
export async function oralReadingView(
  sql: AnySql,
  state: OralReadingState,
  passage: Pick<ReadingPassage, 'titleAr' | 'words'> | null,
) {
  const { started, stopped } = state;
  let read: BandedRead | null = null;
  let counts: { attempted: number; errors: number; correct: number } | null = null;
  if (stopped) {
    const counted = countsOfStop(state, stopped);
    if (!counted.ok) throw new Error(`stored stop of ${started.attemptId} does not count: ${counted.reason}`);
    counts = counted.counts;
    const address = { cell: 'oral_text' as const, grade: started.grade, window: started.window };
    const table = await pinnedReadCuts(sql, stopped.cut, address);
    // A pin whose rows are gone: the summary the stop stored is all that is left of its bands.
    read =
      stopped.cut && !table
        ? (stopped.result as unknown as BandedRead)
        : bandedRead(counted.counts, table, await scoringStatusOf(sql, 'oral_text', started.grade));
  }
  return {
    id: started.attemptId,
    studentId: started.studentId,
    classId: started.classId,
    grade: started.grade,
    academicYear: started.academicYear,
    window: started.window,
    passageId: started.passageId,
    passageVersion: started.passageVersion,
    titleAr: passage?.titleAr ?? null,
    words: passage?.words ?? null,
    wordCount: started.wordCount,
    durationSeconds: started.durationSeconds,
    status: stopped ? ('stopped' as const) : ('in_progress' as const),
    voided: state.voided !== null,
    startedAt: started.startedAt,
    startedBy: started.startedBy,
    marks: [...state.marks].sort(([a], [b]) => a - b).map(([wordIndex, mark]) => ({ wordIndex, mark })),
    stoppedAt: stopped?.at ?? null,
    lastWordIndex: stopped?.lastWordIndex ?? null,
    elapsedSeconds: stopped?.elapsedSeconds ?? null,
    attempted: counts?.attempted ?? null,
    errors: counts?.errors ?? null,
    correct: counts?.correct ?? null,
    wcpm: read?.wcpm ?? null,
    accuracy: read?.accuracy ?? null,
    accuracyBand: read?.accuracyBand ?? null,
    rateBand: read?.rateBand ?? null,
    band: read?.band ?? null,
    bandBasis: read?.bandBasis ?? null,
    skippedReason: read?.skippedReason ?? null,
    rateCut: read?.rateCut ?? null,
    provisional: read?.provisional ?? null,
    cutVersion: stopped?.cut?.version ?? null,
  };
}

export type OralReadingView = Awaited<ReturnType<typeof oralReadingView>>;
