import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comprehensionComposite, type MeasureLevelCuts, scoreMeasure } from './scoreMeasure';

const cuts: MeasureLevelCuts = { version: 'cuts-1', minRaw: [3, 5, 7], provisional: false };
const base = { planned: 8, end: 'completed', cuts, scoringStatus: 'normed' } as const;

describe('scoreMeasure', () => {
  it('levels a complete measure by its cut rows and pins the cut version', () => {
    const score = scoreMeasure({ ...base, correct: [true, true, true, true, true, false, false, true] });
    expect(score).toMatchObject({
      raw: 6,
      max: 8,
      complete: true,
      level: 3,
      cutVersion: 'cuts-1',
      incompleteReason: null,
    });
  });

  it('gives no level to a measure the child did not finish, with the reason in Arabic', () => {
    const score = scoreMeasure({ ...base, end: 'stopped', correct: [true, true, true] });
    expect(score).toMatchObject({ raw: 3, complete: false, level: null, incompleteReason: 'sitting_stopped' });
    expect(score.incompleteReasonAr).toMatch(/[\u0600-\u06ff]/);
    expect(scoreMeasure({ ...base, end: 'open', correct: [] }).incompleteReason).toBe('not_finished');
    expect(scoreMeasure({ ...base, end: 'window_closed', correct: [] }).incompleteReason).toBe('window_closed');
  });

  it('is provisional when the measure or its cut table is', () => {
    const all = Array(8).fill(true);
    expect(scoreMeasure({ ...base, correct: all, scoringStatus: 'provisional' }).provisional).toBe(true);
    expect(scoreMeasure({ ...base, correct: all, cuts: { ...cuts, provisional: true } }).provisional).toBe(true);
    expect(scoreMeasure({ ...base, correct: all }).provisional).toBe(false);
  });

  it('never counts more than planned, and raw stays within 0..max', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.array(fc.boolean(), { maxLength: 30 }), (planned, correct) => {
        const s = scoreMeasure({ ...base, planned, correct });
        expect(s.raw).toBeGreaterThanOrEqual(0);
        expect(s.raw).toBeLessThanOrEqual(s.max);
        expect(s.level === null || (s.level >= 1 && s.level <= 4)).toBe(true);
        expect(s.complete).toBe(planned > 0 && correct.length >= planned);
      }),
    );
  });
});

describe('comprehensionComposite', () => {
  const passage = (raw: number, complete = true) =>
    scoreMeasure({
      ...base,
      planned: 6,
      correct: Array(complete ? 6 : 2)
        .fill(false)
        .map((_, i) => i < raw),
    });

  it('scales both passages to a score out of 12', () => {
    expect(comprehensionComposite([passage(5), passage(4)])).toEqual({ score: 9, outOf: 12 });
  });

  it('is null unless both passages are complete', () => {
    expect(comprehensionComposite([passage(5), passage(1, false)])).toBeNull();
    expect(comprehensionComposite([passage(5)])).toBeNull();
  });
});
