import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { unprocessable } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import { bandedRead, resultSummary } from '../engine/bandedRead';
import { countsOfStop, errorIndicesOf } from '../engine/oralReadingState';
import type { ReadRefusal } from '../engine/readCounts';
import { ORAL_READING_STOPPED } from '../events';
import type { OralReadingStoppedData } from '../events/orfEvents';
import { scoringStatusOf } from '../queries/cellMeasure';
import { currentReadCuts } from '../queries/readCuts';
import { changeOralReading } from './changeOralReading';

/** The timed-grid refusals as an oral reading names them (its body fields are camelCase). */
const ORF_REFUSALS: Partial<Record<ReadRefusal, { reason: string; field: string }>> = {
  word_list_last_word_out_of_range: { reason: 'orf_last_word_out_of_range', field: 'lastWordIndex' },
  word_list_elapsed_exceeds_duration: { reason: 'orf_elapsed_out_of_range', field: 'elapsedSeconds' },
};

/**
 * Stops an open reading at the last word the child reached after `elapsedSeconds` (1 up to the reading
 * time): attempted = last word index + 1, marks past it dropped, WCPM over the actual seconds, accuracy =
 * correct / attempted, banded with the organization's (else the global) cut table, whose version is pinned on
 * `OralReadingStopped` with the raw counts.
 */
export function stopOralReading(
  deps: { sql: Sql; store: EventStore },
  caller: Caller,
  attemptId: string,
  input: { lastWordIndex: number; elapsedSeconds: number },
  // The routes pass `deps.clock`'s now; the demo seed its probes of past weeks. The wall clock only without one.
  options: { now?: Date } = {},
) {
  return changeOralReading(deps, caller, attemptId, async (state) => {
    const errorIndices = errorIndicesOf(state.marks);
    const counted = countsOfStop(state, { ...input, errorIndices });
    if (!counted.ok) {
      const refusal = ORF_REFUSALS[counted.reason] ?? { reason: counted.reason, field: counted.field };
      throw unprocessable(refusal.reason, 'the stop cannot be counted', [
        { field: refusal.field, issue: refusal.reason },
      ]);
    }
    const { started } = state;
    const address = { cell: 'oral_text' as const, grade: started.grade, window: started.window };
    const table = await currentReadCuts(deps.sql, started.organizationId, address);
    const read = bandedRead(counted.counts, table, await scoringStatusOf(deps.sql, 'oral_text', started.grade));
    const data: OralReadingStoppedData = {
      attemptId,
      at: (options.now ?? new Date()).toISOString(),
      stoppedBy: caller.userId,
      lastWordIndex: input.lastWordIndex,
      elapsedSeconds: input.elapsedSeconds,
      errorIndices,
      attempted: counted.counts.attempted,
      errors: counted.counts.errors,
      droppedMarks: counted.counts.droppedMarks,
      cut: read.cut,
      rateCut: read.rateCut,
      result: resultSummary(read),
    };
    return [{ type: ORAL_READING_STOPPED, data }];
  });
}
