import type { RecordedEvent } from '@qiraa/eventstore';
import { describe, expect, it } from 'vitest';
import { SITTING_ANSWER_RECORDED, SITTING_COMPLETED, SITTING_STARTED, SITTING_STOPPED } from '../events';
import type { DigitalSittingStarted, PlannedQuestion } from '../events/sittingTypes';
import { foldSitting, servedPosition } from './foldSitting';
import type { MeasureLevelCuts } from './scoreMeasure';
import { scoreSitting } from './scoreSitting';

const q = (measureCode: string, i: number): PlannedQuestion => ({
  itemId: `${measureCode}-${i}`,
  itemVersion: 1,
  measureCode,
  sectionKey: measureCode === 'text1_comprehension' ? 'text1' : 'text2',
  formId: 'frm',
  formPosition: i,
  passageId: null,
  itemPattern: 'passage_literal',
  subSkillId: 'lc_explicit_detail',
  breakBefore: false,
});
const plan = [1, 2, 3]
  .map((i) => q('text1_comprehension', i))
  .concat([1, 2, 3].map((i) => q('text2_comprehension', i)));
const started = {
  attemptId: 's1',
  measures: ['text1_comprehension', 'text2_comprehension'],
  plan,
} as DigitalSittingStarted;

let version = 0n;
const event = (type: string, data: unknown): RecordedEvent =>
  ({ type, data, eventId: `e${version}`, streamVersion: ++version }) as unknown as RecordedEvent;
const answer = (position: number, correct: boolean) =>
  event(SITTING_ANSWER_RECORDED, {
    attemptId: 's1',
    position,
    itemId: plan[position]!.itemId,
    answer: 'a',
    correct,
  });

const cuts = new Map<string, MeasureLevelCuts>([
  ['text1_comprehension', { version: 'v1', minRaw: [1, 2, 3], provisional: false }],
  ['text2_comprehension', { version: 'v1', minRaw: [1, 2, 3], provisional: true }],
]);
const catalog = {
  measureByCode: new Map([
    ['text1_comprehension', { labelAr: 'فهم النص الأول', scoringStatus: 'normed' }],
    ['text2_comprehension', { labelAr: 'فهم النص الثاني', scoringStatus: 'normed' }],
  ]),
} as never;

describe('foldSitting and scoreSitting', () => {
  it('scores a completed sitting per measure with the pinned cuts, the composite and the item review', () => {
    const fold = foldSitting([
      event(SITTING_STARTED, started),
      ...[true, true, false, true, false, false].map((c, i) => answer(i, c)),
      event(SITTING_COMPLETED, { attemptId: 's1', at: 'x' }),
    ])!;
    expect(fold).toMatchObject({ status: 'done', endReason: 'completed' });
    expect(servedPosition(fold)).toBe(6);
    const result = scoreSitting(fold, cuts, catalog);
    expect(result.measures.map((m) => [m.raw, m.max, m.level, m.provisional, m.cutVersion])).toEqual([
      [2, 3, 3, false, 'v1'],
      [1, 3, 2, true, 'v1'],
    ]);
    expect(result.composite).toEqual({ score: 6, outOf: 12 });
    expect(result.itemReview[2]).toEqual({
      position: 3,
      measureCode: 'text1_comprehension',
      pattern: 'passage_literal',
      skill: 'lc_explicit_detail',
      correct: false,
      answer: 'a',
    });
  });

  it('reads a sitting stopped by someone else as incomplete with the stop’s reason; later answers do not count', () => {
    const fold = foldSitting([
      event(SITTING_STARTED, started),
      answer(0, true),
      event(SITTING_STOPPED, { attemptId: 's1', at: 'x', reason: 'window_closed' }),
      answer(1, true),
    ])!;
    expect(fold).toMatchObject({ status: 'stopped', endReason: 'window_closed' });
    expect(fold.answers.size).toBe(1);
    const [text1, text2] = scoreSitting(fold, cuts, catalog).measures;
    expect(text1).toMatchObject({ raw: 1, complete: false, incompleteReason: 'window_closed', level: null });
    expect(text2).toMatchObject({ raw: 0, complete: false, incompleteReason: 'window_closed', trainingLevel: null });
  });

  it('keeps an open sitting not_finished and serves the first unanswered question', () => {
    const fold = foldSitting([event(SITTING_STARTED, started), answer(0, true), answer(1, false)])!;
    expect(servedPosition(fold)).toBe(2);
    expect(scoreSitting(fold, cuts, catalog).measures[0]).toMatchObject({ incompleteReason: 'not_finished' });
    expect(foldSitting([answer(0, true)])).toBeNull();
  });
});
