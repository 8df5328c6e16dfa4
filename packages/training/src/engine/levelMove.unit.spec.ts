import { describe, expect, it } from 'vitest';
import { CURRENT_TRAINING_RULES as rules, trainingRulesOf } from '../rules/trainingRules';
import { countedAnswer } from './countedAnswer';
import { type CountedAnswer, decideLevelMove } from './levelMove';
import { planDay } from './planDay';

/** Counted answers from a pattern: `1` correct, `0` wrong; `|` starts the next school day. */
function answers(pattern: string): CountedAnswer[] {
  const out: CountedAnswer[] = [];
  let day = 1;
  for (const c of pattern) {
    if (c === '|') day++;
    else
      out.push({
        answerId: `a${out.length}`,
        correct: c === '1',
        schoolDay: `2026-09-${String(day).padStart(2, '0')}`,
      });
  }
  return out;
}

describe('decideLevelMove (TLM-01 up, TLM-02 down)', () => {
  it('moves up at 7 of the last 8 counted answers across two days', () => {
    expect(decideLevelMove(rules, 1, answers('1111|1110')).direction).toBe('up');
    expect(decideLevelMove(rules, 1, answers('0000|1111|1110'))).toMatchObject({ direction: 'up', ruleId: 'TLM-01' });
  });
  it('needs 80 percent: 6 of 8 is not enough', () => {
    expect(decideLevelMove(rules, 1, answers('1111|1100')).direction).toBeNull();
  });
  it('needs two training days', () => {
    expect(decideLevelMove(rules, 1, answers('11111111')).direction).toBeNull();
  });
  it('needs 8 counted answers', () => {
    expect(decideLevelMove(rules, 1, answers('111|1111')).direction).toBeNull();
  });
  it('never above level 4 nor below level 1', () => {
    expect(decideLevelMove(rules, 4, answers('1111|1111')).direction).toBeNull();
    expect(decideLevelMove(rules, 1, answers('0000|0000|0000|0000')).direction).toBeNull();
  });
  it('moves down after two consecutive closed blocks of 8 below 60 percent', () => {
    const down = decideLevelMove(rules, 3, answers('11110000|11100000'));
    expect(down).toMatchObject({ direction: 'down', ruleId: 'TLM-02' });
    if (down.direction) expect(down.evidenceAnswerIds).toHaveLength(16);
  });
  it('a block at 60 percent or more breaks the run; an unclosed block waits', () => {
    expect(decideLevelMove(rules, 3, answers('11111000|11100000')).direction).toBeNull();
    expect(decideLevelMove(rules, 3, answers('00000000|0000000')).direction).toBeNull();
    expect(decideLevelMove(rules, 3, answers('11111000|00000000|00000000')).direction).toBe('down');
  });
});

describe('countedAnswer', () => {
  const base = { role: 'ordinary' as const, repeatedToday: false, hinted: false, responseMs: 4000 };
  it('counts an independent first try', () => expect(countedAnswer(rules, base).counted).toBe(true));
  it.each([
    [{ role: 'retry' as const }, 'second_try'],
    [{ role: 'support' as const }, 'support_step'],
    [{ role: 'exit' as const }, 'exit_question'],
    [{ hinted: true }, 'hinted'],
    [{ repeatedToday: true }, 'repeated_item'],
    [{ responseMs: 1499 }, 'rapid'],
  ])('%o is not counted (%s)', (change, reason) => {
    expect(countedAnswer(rules, { ...base, ...change })).toEqual({ counted: false, reason });
  });
  it('the rapid floor is inclusive of 1500 ms', () =>
    expect(countedAnswer(rules, { ...base, responseMs: 1500 }).counted).toBe(true));
});

describe('planDay', () => {
  const pool = (skillId: string, n: number) => ({
    skillId,
    level: 1 as const,
    levelId: `L-${skillId}`,
    measureCode: null,
    itemIds: Array.from({ length: n }, (_, i) => `${skillId}-${i}`),
  });
  it('3 exercises of 4 from one deep target, closing question from an unplanned item', () => {
    const plan = planDay(rules, [pool('a', 20)]);
    expect(plan.exercises.map((e) => e.itemIds.length)).toEqual([4, 4, 4]);
    expect(plan.exit?.itemId).toBe('a-12');
  });
  it('never more than a level can serve', () => {
    const plan = planDay(rules, [pool('a', 3)]);
    expect(plan.plannedExercises).toBe(1);
    expect(plan.questionsPerExercise).toBe(3);
    expect(plan.exit?.itemId).toBe('a-0');
  });
  it('targets in turn, skipping an empty pool', () => {
    const plan = planDay(rules, [pool('a', 3), pool('b', 0), pool('c', 5), pool('d', 4)]);
    expect(plan.exercises.map((e) => e.skillId)).toEqual(['a', 'c', 'd']);
  });
  it('nothing to serve: no exercise, no closing question', () => {
    expect(planDay(rules, [pool('a', 0)])).toMatchObject({ plannedExercises: 0, exit: null });
  });
});

describe('training rules v1', () => {
  it('has 19 bridge rules, none at levels 3 and 4', () => {
    expect(rules.bridgeRules).toHaveLength(19);
    expect(rules.bridgeRules.every((r) => r.level <= 2)).toBe(true);
  });
  it('refuses a bridge rule at level 3', () => {
    const bad = structuredClone(rules);
    bad.bridgeRules[0]!.level = 3;
    expect(() => trainingRulesOf(bad)).toThrow(/above level 2/);
  });
});
