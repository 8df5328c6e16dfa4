import { describe, expect, it } from 'vitest';
import { CURRENT_CLUSTER_RULE_SET as rules } from '../rules/ruleSet';
import { tierBreakdownOf } from './tierBreakdown';

describe('tier breakdown (Scaffold Distribution Preview)', () => {
  it('counts per skill × task type: measure levels 1, 2, 3-4 and read bands through the rule set', () => {
    const rows = tierBreakdownOf(rules, [
      { skillId: 'letter_sounds', taskType: 'digital', measureLevel: 1, band: null },
      { skillId: 'letter_sounds', taskType: 'digital', measureLevel: 4, band: null },
      { skillId: 'letter_sounds', taskType: 'digital', measureLevel: 3, band: null },
      { skillId: 'oral_text_reading', taskType: 'oral_text', measureLevel: null, band: 'developing' },
      { skillId: 'oral_text_reading', taskType: 'oral_text', measureLevel: null, band: 'beginning' },
      { skillId: 'familiar_word_reading', taskType: 'oral_familiar_words', measureLevel: null, band: 'strong' },
      { skillId: 'familiar_word_reading', taskType: 'digital', measureLevel: 2, band: null },
      { skillId: 'letter_sounds', taskType: 'digital', measureLevel: null, band: null },
    ]);
    expect(rows).toEqual([
      { skillId: 'familiar_word_reading', taskType: 'digital', Level_1: 0, Level_2: 1, Level_3: 0 },
      { skillId: 'familiar_word_reading', taskType: 'oral_familiar_words', Level_1: 0, Level_2: 0, Level_3: 1 },
      { skillId: 'letter_sounds', taskType: 'digital', Level_1: 1, Level_2: 0, Level_3: 2 },
      { skillId: 'oral_text_reading', taskType: 'oral_text', Level_1: 1, Level_2: 1, Level_3: 0 },
    ]);
  });

  it('no evidence: no rows', () => {
    expect(tierBreakdownOf(rules, [])).toEqual([]);
  });
});
