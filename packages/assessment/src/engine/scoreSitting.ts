import type { Catalog } from '@qiraa/content';
import { evaluateEngineRules } from '@qiraa/http-kit';
import type { SittingFold } from '../events/sittingTypes';
import {
  comprehensionComposite,
  type IncompleteReason,
  type MeasureLevelCuts,
  type MeasureScore,
  type SittingEnd,
  scoreMeasure,
} from './scoreMeasure';

/** Spec `MeasureResult`, plus the measure code and the cut version it was read with. */
export interface MeasureResult {
  measureCode: string;
  labelAr: string;
  raw: number;
  max: number;
  complete: boolean;
  incompleteReason: IncompleteReason | null;
  incompleteReasonAr: string | null;
  level: 1 | 2 | 3 | 4 | null;
  /** A screen result seeds the training level; null while the measure has no level. */
  trainingLevel: { source: 'screen'; number: 1 | 2 | 3 | 4 } | null;
  provisional: boolean;
  /** The sitting the result comes from. */
  sessionId: string;
  cutVersion: string | null;
}

/** Spec `MeasureComposite`: comprehension out of 12, informational only (never decides anything). */
export interface MeasureComposite {
  score: number;
  outOf: 12;
}

/** Spec `MeasureItemReview`: never the question text or the correct option. */
export interface MeasureItemReview {
  position: number;
  measureCode: string;
  pattern: string;
  skill: string;
  /** null while unanswered. */
  correct: boolean | null;
  answer: string | null;
}

export interface SittingResult {
  measures: MeasureResult[];
  composite: MeasureComposite | null;
  itemReview: MeasureItemReview[];
}

export const sittingEndOf = (fold: Pick<SittingFold, 'status' | 'endReason'>): SittingEnd =>
  fold.status === 'in_progress'
    ? 'open'
    : fold.status === 'done'
      ? 'completed'
      : fold.endReason === 'window_closed'
        ? 'window_closed'
        : 'stopped';

const COMPREHENSION = ['text1_comprehension', 'text2_comprehension'];

/** Every measure of the sitting's plan scored with the pinned cuts, the composite and the item review. Pure. */
export function scoreSitting(
  fold: Pick<SittingFold, 'attemptId' | 'started' | 'answers' | 'status' | 'endReason'>,
  cuts: ReadonlyMap<string, MeasureLevelCuts>,
  catalog: Pick<Catalog, 'measureByCode'>,
): SittingResult {
  // The scoring engine evaluating its rules: a throw is the engine unavailable (503), never a 500.
  return evaluateEngineRules('scoring', 'the sitting scoring', () => scoreSittingOf(fold, cuts, catalog));
}

function scoreSittingOf(
  fold: Pick<SittingFold, 'attemptId' | 'started' | 'answers' | 'status' | 'endReason'>,
  cuts: ReadonlyMap<string, MeasureLevelCuts>,
  catalog: Pick<Catalog, 'measureByCode'>,
): SittingResult {
  const end = sittingEndOf(fold);
  const plan = fold.started.plan;
  const scores = new Map<string, MeasureScore>();
  const measures = fold.started.measures.map((code): MeasureResult => {
    const positions = plan.flatMap((q, i) => (q.measureCode === code ? [i] : []));
    const correct: boolean[] = [];
    for (const p of positions) {
      const answer = fold.answers.get(p);
      if (!answer) break;
      correct.push(answer.correct);
    }
    const catalogMeasure = catalog.measureByCode.get(code);
    const score = scoreMeasure({
      planned: positions.length,
      correct,
      end,
      cuts: cuts.get(code) ?? null,
      scoringStatus: catalogMeasure?.scoringStatus ?? 'provisional',
    });
    scores.set(code, score);
    return {
      measureCode: code,
      labelAr: catalogMeasure?.labelAr ?? code,
      raw: score.raw,
      max: score.max,
      complete: score.complete,
      incompleteReason: score.incompleteReason,
      incompleteReasonAr: score.incompleteReasonAr,
      level: score.level,
      trainingLevel: score.level === null ? null : { source: 'screen', number: score.level },
      provisional: score.provisional,
      sessionId: fold.attemptId,
      cutVersion: score.cutVersion,
    };
  });
  const passages = COMPREHENSION.flatMap((code) => {
    const s = scores.get(code);
    return s ? [s] : [];
  });
  const itemReview = plan.map((q, i): MeasureItemReview => {
    const answer = fold.answers.get(i);
    return {
      position: i + 1,
      measureCode: q.measureCode,
      pattern: q.itemPattern,
      skill: q.subSkillId,
      correct: answer ? answer.correct : null,
      answer: answer ? answer.answer : null,
    };
  });
  return { measures, composite: comprehensionComposite(passages), itemReview };
}

/** The teacher page's summary of an ended sitting (`asm_attempts.result`): the measure results. */
export const resultSummaryOf = (result: SittingResult) => ({
  measures: result.measures.map((m) => ({
    measureCode: m.measureCode,
    labelAr: m.labelAr,
    raw: m.raw,
    max: m.max,
    level: m.level,
    complete: m.complete,
    provisional: m.provisional,
    incompleteReason: m.incompleteReason,
    cutVersion: m.cutVersion,
  })),
  composite: result.composite,
});
