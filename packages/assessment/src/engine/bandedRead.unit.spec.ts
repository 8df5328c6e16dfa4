import type { RecordedEvent } from '@qiraa/eventstore';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ORAL_READING_MARKED, ORAL_READING_STARTED } from '../events';
import { ORF_MARKS } from '../events/orfEvents';
import { bandedRead } from './bandedRead';
import type { ReadCutTable } from './bandRead';
import { READ_BANDS, type ReadBand } from './bandRead';
import { countsOfStop, errorIndicesOf, foldOralReading } from './oralReadingState';
import { READ_REFUSALS } from './readCounts';

const rank = (band: ReadBand | null) => (band === null ? -1 : READ_BANDS.indexOf(band));

const recorded = (streamVersion: number, type: string, data: unknown): RecordedEvent => ({
  eventId: `e${streamVersion}`,
  streamId: 'orf-x',
  streamVersion: BigInt(streamVersion),
  type,
  schemaVersion: 1,
  data,
  metadata: {},
  createdAt: new Date(0),
  position: String(streamVersion),
});

const cutPoints = fc.array(
  fc.record({ band: fc.constantFrom(...READ_BANDS), min: fc.integer({ min: -20, max: 250 }) }),
  { maxLength: 4 },
);
const cutTable: fc.Arbitrary<ReadCutTable | null> = fc.option(
  fc.record({
    version: fc.constant('v'),
    organizationId: fc.constant(null),
    accuracy: cutPoints,
    rate: cutPoints,
    rateWithheld: fc.boolean(),
    provisional: fc.boolean(),
  }),
);

describe('the oral reading scoring path, marks to band', () => {
  it('never yields a negative or out-of-bounds rate or accuracy, and bands consistently, whatever is marked and sent', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 150 }),
        fc.integer({ min: 10, max: 180 }),
        fc.array(fc.tuple(fc.integer({ min: -5, max: 200 }), fc.constantFrom(...ORF_MARKS)), { maxLength: 200 }),
        fc.integer({ min: -5, max: 200 }),
        fc.integer({ min: -5, max: 300 }),
        cutTable,
        fc.constantFrom('normed' as const, 'provisional' as const),
        (wordCount, durationSeconds, marks, lastWordIndex, elapsedSeconds, table, scoringStatus) => {
          const state = foldOralReading([
            recorded(1, ORAL_READING_STARTED, { attemptId: 'x', wordCount, durationSeconds }),
            ...marks.map(([wordIndex, mark], i) => recorded(i + 2, ORAL_READING_MARKED, { wordIndex, mark })),
          ])!;
          const errorIndices = errorIndicesOf(state.marks);
          const counted = countsOfStop(state, { lastWordIndex, elapsedSeconds, errorIndices });
          if (!counted.ok) {
            expect(READ_REFUSALS).toContain(counted.reason);
            const refusedRightly =
              lastWordIndex < 0 || lastWordIndex >= wordCount || elapsedSeconds < 1 || elapsedSeconds > durationSeconds;
            expect(refusedRightly).toBe(true);
            return;
          }
          const c = counted.counts;
          expect(c.attempted).toBe(lastWordIndex + 1);
          expect(c.errors).toBeGreaterThanOrEqual(0);
          expect(c.errors).toBeLessThanOrEqual(c.attempted);
          expect(c.errors).toBe(errorIndices.filter((i) => i >= 0 && i <= lastWordIndex).length);
          const read = bandedRead(c, table, scoringStatus);
          expect(read.accuracy).toBeGreaterThanOrEqual(0);
          expect(read.accuracy).toBeLessThanOrEqual(100);
          expect(read.wcpm).not.toBeNull();
          expect(read.wcpm!).toBeGreaterThanOrEqual(0);
          expect(read.wcpm!).toBeLessThanOrEqual((c.attempted * 60) / elapsedSeconds + 0.05);
          // The rate band exists exactly when the rate cut is applied and has points.
          if (read.rateCut !== 'applied') expect(read.rateBand).toBeNull();
          if (table?.rateWithheld) expect(read.rateCut).toBe('withheld_in_window');
          if (table === null) expect(read.rateCut).toBe('no_norm');
          // The band is the lower of the two that exist; none is not_banded without a pinned cut.
          if (read.band === null) {
            expect(read).toMatchObject({ skippedReason: 'not_banded', bandBasis: null });
          } else {
            expect(read.skippedReason).toBeNull();
            expect(rank(read.band)).toBe(
              Math.min(...[read.accuracyBand, read.rateBand].filter((b) => b !== null).map(rank)),
            );
          }
          expect(read.cut?.version ?? null).toBe(table?.version ?? null);
          expect(read.provisional).toBe(scoringStatus === 'provisional' || table === null || table.provisional);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('counts a word by its latest mark: a self-correction or a clear mark undoes an error', () => {
    const state = foldOralReading([
      recorded(1, ORAL_READING_STARTED, { attemptId: 'x', wordCount: 10, durationSeconds: 60 }),
      recorded(2, ORAL_READING_MARKED, { wordIndex: 1, mark: 'error' }),
      recorded(3, ORAL_READING_MARKED, { wordIndex: 2, mark: 'error' }),
      recorded(4, ORAL_READING_MARKED, { wordIndex: 2, mark: 'self_correction' }),
      recorded(5, ORAL_READING_MARKED, { wordIndex: 3, mark: 'error' }),
      recorded(6, ORAL_READING_MARKED, { wordIndex: 3, mark: 'clear' }),
    ])!;
    expect(errorIndicesOf(state.marks)).toEqual([1]);
  });
});
