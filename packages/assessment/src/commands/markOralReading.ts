import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { unprocessable } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import { ORAL_READING_MARKED } from '../events';
import type { OralReadingMarkedData, OrfMark } from '../events/orfEvents';
import { changeOralReading } from './changeOralReading';

/**
 * Marks one word of an open reading (`OralReadingMarked`); the word's latest mark counts. A word index outside
 * the passage is 422 `orf_word_out_of_range` (nothing written).
 */
export function markOralReading(
  deps: { sql: Sql; store: EventStore },
  caller: Caller,
  attemptId: string,
  input: { wordIndex: number; mark: OrfMark },
  // The routes pass `deps.clock`'s now (a mark's `at`); the wall clock only without one.
  options: { now?: Date } = {},
) {
  return changeOralReading(deps, caller, attemptId, (state) => {
    if (input.wordIndex >= state.started.wordCount) {
      throw unprocessable('orf_word_out_of_range', `the passage has ${state.started.wordCount} words (0-based index)`, [
        { field: 'wordIndex', issue: 'orf_word_out_of_range' },
      ]);
    }
    const data: OralReadingMarkedData = {
      attemptId,
      wordIndex: input.wordIndex,
      mark: input.mark,
      markedBy: caller.userId,
      at: (options.now ?? new Date()).toISOString(),
    };
    return [{ type: ORAL_READING_MARKED, data }];
  });
}
