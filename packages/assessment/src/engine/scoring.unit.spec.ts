import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bandRead, READ_BANDS, type ReadCuts } from './bandRead';
import { countRead, READ_REFUSALS, type ReadInput } from './readCounts';
import { scoreRead } from './scoreRead';

const timed = { timed: true, durationSeconds: 60 } as const;
const untimed = { timed: false, durationSeconds: null } as const;

const counted = (input: ReadInput) => {
  const result = countRead(input);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.counts;
};

const cuts: ReadCuts = {
  version: 'test-1',
  accuracy: [
    { band: 'developing', min: 80 },
    { band: 'on_track', min: 90 },
    { band: 'strong', min: 97 },
  ],
  rate: [
    { band: 'developing', min: 20 },
    { band: 'on_track', min: 40 },
    { band: 'strong', min: 60 },
  ],
};

describe('countRead: the timed-grid rules', () => {
  it('counts attempted as the last word index plus one and drops marks past it', () => {
    const counts = counted({
      wordCount: 50,
      timing: timed,
      lastWordIndex: 29,
      elapsedSeconds: 60,
      errorIndices: [3, 7, 30, 45],
    });
    expect(counts).toMatchObject({ attempted: 30, errors: 2, correct: 28, droppedMarks: 2 });
  });

  it('counts a word marked twice once', () => {
    expect(
      counted({ wordCount: 10, timing: timed, lastWordIndex: 9, elapsedSeconds: 30, errorIndices: [2, 2] }).errors,
    ).toBe(1);
  });

  it('uses the actual elapsed seconds for words correct per minute', () => {
    const counts = counted({
      wordCount: 60,
      timing: timed,
      lastWordIndex: 59,
      elapsedSeconds: 45,
      errorIndices: [1, 2, 3],
    });
    expect(scoreRead(counts)).toEqual({ wcpm: 76, accuracyPercent: 95 });
  });

  it('reads every word of an untimed list and gives no rate', () => {
    const counts = counted({ wordCount: 20, timing: untimed, errorIndices: [0, 19] });
    expect(counts).toMatchObject({ attempted: 20, errors: 2, timed: false, elapsedSeconds: null });
    expect(scoreRead(counts).wcpm).toBeNull();
  });

  it.each([
    [{ lastWordIndex: null, elapsedSeconds: 30 }, 'word_list_timing_required', 'last_word_index'],
    [{ lastWordIndex: 5, elapsedSeconds: null }, 'word_list_timing_required', 'elapsed_seconds'],
    [{ lastWordIndex: 50, elapsedSeconds: 30 }, 'word_list_last_word_out_of_range', 'last_word_index'],
    [{ lastWordIndex: 5, elapsedSeconds: 61 }, 'word_list_elapsed_exceeds_duration', 'elapsed_seconds'],
    [{ lastWordIndex: 5, elapsedSeconds: 0 }, 'word_list_elapsed_exceeds_duration', 'elapsed_seconds'],
  ])('refuses a timed read with %o: %s', (given, reason, field) => {
    expect(countRead({ wordCount: 50, timing: timed, errorIndices: [], ...given })).toEqual({
      ok: false,
      reason,
      field,
    });
  });

  it('refuses a last word index or elapsed seconds on an untimed list', () => {
    expect(countRead({ wordCount: 20, timing: untimed, lastWordIndex: 3, errorIndices: [] })).toMatchObject({
      reason: 'word_list_not_timed',
    });
    expect(countRead({ wordCount: 20, timing: untimed, elapsedSeconds: 30, errorIndices: [] })).toMatchObject({
      reason: 'word_list_not_timed',
    });
  });

  it('never yields a negative or out-of-bounds count, rate or accuracy, whatever a client sends', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.boolean(),
        fc.integer({ min: 10, max: 600 }),
        fc.option(fc.integer({ min: -5, max: 260 })),
        fc.option(fc.integer({ min: -5, max: 700 })),
        fc.array(fc.integer({ min: -10, max: 300 }), { maxLength: 300 }),
        (wordCount, isTimed, duration, lastWordIndex, elapsedSeconds, errorIndices) => {
          const timing = isTimed ? { timed: true, durationSeconds: duration } : untimed;
          const result = countRead({ wordCount, timing, lastWordIndex, elapsedSeconds, errorIndices });
          if (!result.ok) {
            expect(READ_REFUSALS).toContain(result.reason);
            return;
          }
          const c = result.counts;
          expect(c.attempted).toBeGreaterThanOrEqual(1);
          expect(c.attempted).toBeLessThanOrEqual(wordCount);
          expect(c.errors).toBeGreaterThanOrEqual(0);
          expect(c.errors).toBeLessThanOrEqual(c.attempted);
          expect(c.correct).toBe(c.attempted - c.errors);
          const score = scoreRead(c);
          expect(score.accuracyPercent).toBeGreaterThanOrEqual(0);
          expect(score.accuracyPercent).toBeLessThanOrEqual(100);
          if (score.wcpm !== null) {
            expect(score.wcpm).toBeGreaterThanOrEqual(0);
            expect(score.wcpm).toBeLessThanOrEqual((c.attempted * 60) / c.elapsedSeconds! + 0.05);
          }
          const banding = bandRead(score, cuts);
          expect(banding.band === null || READ_BANDS.includes(banding.band)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('bandRead', () => {
  const score = (accuracyPercent: number, wcpm: number | null) => ({ accuracyPercent, wcpm });

  it('takes the lower of the accuracy and rate bands when both exist', () => {
    expect(bandRead(score(98, 45), cuts)).toMatchObject({
      accuracyBand: 'strong',
      rateBand: 'on_track',
      band: 'on_track',
      bandBasis: 'lower_of',
      cutVersion: 'test-1',
    });
  });

  it('bands an untimed read on accuracy alone', () => {
    expect(bandRead(score(85, null), cuts)).toMatchObject({
      band: 'developing',
      bandBasis: 'accuracy',
      rateBand: null,
    });
  });

  it('bands on rate alone when the table has no accuracy cuts', () => {
    expect(bandRead(score(50, 70), { ...cuts, accuracy: [] })).toMatchObject({ band: 'strong', bandBasis: 'rate' });
  });

  it('records a read without a band when the cut table is empty (not_banded)', () => {
    expect(bandRead(score(90, 40), null)).toMatchObject({ band: null, bandBasis: null, skippedReason: 'not_banded' });
    expect(bandRead(score(90, 40), { version: 'v', accuracy: [], rate: [] })).toMatchObject({
      skippedReason: 'not_banded',
    });
  });
});
