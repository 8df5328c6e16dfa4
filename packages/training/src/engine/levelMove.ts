import type { TrainingRules } from '../rules/trainingRules';

export interface CountedAnswer {
  answerId: string;
  correct: boolean;
  schoolDay: string;
}

export type MoveDecision =
  | { direction: 'up' | 'down'; ruleId: string; evidenceAnswerIds: string[] }
  | { direction: null };

/**
 * The level rules over the counted answers given at the current level, oldest first (answers at an earlier
 * level never count: a move starts the count again).
 * - TLM-01 up: the last `window` (8) counted answers hold at least `minCorrectRate` (80 %) correct and come
 *   from at least `minDays` (2) distinct training days; never above level 4.
 * - TLM-02 down: the counted answers are cut into closed blocks of `block` (8) from the level's start; the
 *   last `blocks` (2) consecutive closed blocks are each below `belowRate` (60 %); only when the last block
 *   just closed, so one pair of blocks moves once; never below level 1.
 */
export function decideLevelMove(rules: TrainingRules, level: number, answers: readonly CountedAnswer[]): MoveDecision {
  const { up, down } = rules.moves;
  if (level < 4 && answers.length >= up.window) {
    const last = answers.slice(-up.window);
    const correct = last.filter((a) => a.correct).length;
    const days = new Set(last.map((a) => a.schoolDay)).size;
    if (correct >= up.minCorrectRate * up.window && days >= up.minDays) {
      return { direction: 'up', ruleId: up.ruleId, evidenceAnswerIds: last.map((a) => a.answerId) };
    }
  }
  const span = down.block * down.blocks;
  if (level > 1 && answers.length >= span && answers.length % down.block === 0) {
    const last = answers.slice(-span);
    let allBelow = true;
    for (let b = 0; b < down.blocks; b++) {
      const block = last.slice(b * down.block, (b + 1) * down.block);
      if (block.filter((a) => a.correct).length >= down.belowRate * down.block) allBelow = false;
    }
    if (allBelow) return { direction: 'down', ruleId: down.ruleId, evidenceAnswerIds: last.map((a) => a.answerId) };
  }
  return { direction: null };
}
