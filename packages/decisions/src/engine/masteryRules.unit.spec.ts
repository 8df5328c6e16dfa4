import { describe, expect, it } from 'vitest';
import { ruleSetOf, CURRENT_RULE_SET as rules } from '../rules/ruleSet';
import { bandProgressionsOf, type PriorStatus, statusMasteryOf } from './masteryRules';

const Y = '2026-2027';
const st = (window: PriorStatus['window'], status: PriorStatus['status'], academicYear = Y): PriorStatus => ({
  academicYear,
  window,
  subSkillId: 'or_connected_text',
  status,
});
const decided = (window: PriorStatus['window'], status: PriorStatus['status'], academicYear = Y) => ({
  ...st(window, status, academicYear),
  doNotDecideYet: status === null,
});

describe('mastery rules (rule set v1)', () => {
  it('MER-01 status_up_between_windows: the first status of a window above the previous window earns skill_status_transition', () => {
    expect(statusMasteryOf(decided('MOY', 'on_track'), [st('BOY', 'developing')], rules)).toEqual({
      ruleId: 'MER-01',
      sourceKind: 'skill_status_transition',
      from: 'developing',
      to: 'on_track',
    });
    // Against the standing (latest) status of the most recent earlier window that has one, across years too.
    expect(
      statusMasteryOf(
        decided('BOY', 'strong'),
        [st('MOY', 'strong', '2025-2026'), st('EOY', 'on_track', '2025-2026')],
        rules,
      ),
    ).toMatchObject({ ruleId: 'MER-01', from: 'on_track' });
    expect(
      statusMasteryOf(
        decided('EOY', 'on_track'),
        [st('BOY', 'beginning'), st('MOY', 'on_track'), st('MOY', null)],
        rules,
      ),
    ).toMatchObject({ ruleId: 'MER-01', from: 'beginning' });
  });

  it('MER-01: no credit for an equal or lower status, the first status ever, or another sub-skill', () => {
    expect(statusMasteryOf(decided('MOY', 'developing'), [st('BOY', 'developing')], rules)).toBeNull();
    expect(statusMasteryOf(decided('MOY', 'beginning'), [st('BOY', 'developing')], rules)).toBeNull();
    expect(statusMasteryOf(decided('BOY', 'strong'), [], rules)).toBeNull();
    expect(
      statusMasteryOf(decided('MOY', 'strong'), [{ ...st('BOY', 'beginning'), subSkillId: 'fw_common_words' }], rules),
    ).toBeNull();
    // A later window is no baseline for an earlier one.
    expect(statusMasteryOf(decided('BOY', 'strong'), [st('MOY', 'beginning')], rules)).toBeNull();
  });

  it('MER-02 status_up_within_window: a status above every earlier one of the same window earns subskill_state_up', () => {
    expect(statusMasteryOf(decided('BOY', 'on_track'), [st('BOY', 'developing')], rules)).toEqual({
      ruleId: 'MER-02',
      sourceKind: 'subskill_state_up',
      from: 'developing',
      to: 'on_track',
    });
    // Within the window wins over the previous window: one decision, one rule.
    expect(
      statusMasteryOf(decided('MOY', 'strong'), [st('BOY', 'beginning'), st('MOY', 'on_track')], rules),
    ).toMatchObject({ ruleId: 'MER-02', from: 'on_track' });
  });

  it('MER-02: a status regained after a void (below the window high) or a fall earns nothing', () => {
    const history = [st('BOY', 'developing'), st('BOY', 'on_track'), st('BOY', 'developing')];
    expect(statusMasteryOf(decided('BOY', 'on_track'), history, rules)).toBeNull();
    expect(statusMasteryOf(decided('BOY', 'beginning'), [st('BOY', 'developing')], rules)).toBeNull();
  });

  it('never for a safe stop (do_not_decide_yet)', () => {
    expect(statusMasteryOf(decided('MOY', null), [st('BOY', 'beginning')], rules)).toBeNull();
    expect(
      statusMasteryOf({ ...st('MOY', 'strong'), doNotDecideYet: true }, [st('BOY', 'beginning')], rules),
    ).toBeNull();
  });

  it('MER-03 read_band_up: a read above the previous banded read of its cell earns band_progression', () => {
    const read = (attemptId: string, at: string, band: PriorStatus['status'], cell = 'oral_text') => ({
      attemptId,
      cell,
      at: `2026-09-0${at}T08:00:00Z`,
      band,
      academicYear: Y,
      window: 'BOY' as const,
    });
    const credits = bandProgressionsOf(
      [
        read('c', '3', 'on_track'),
        read('a', '1', 'developing'),
        read('b', '2', null),
        read('d', '4', 'on_track'),
        read('e', '5', 'beginning'),
        read('f', '6', 'strong'),
        read('w', '7', 'strong', 'oral_familiar_words'),
      ],
      rules,
    );
    expect(credits.map((c) => [c.ruleId, c.sourceKind, c.readAttemptId, c.previousAttemptId, c.from, c.to])).toEqual([
      ['MER-03', 'band_progression', 'c', 'a', 'developing', 'on_track'],
      ['MER-03', 'band_progression', 'f', 'e', 'beginning', 'strong'],
    ]);
  });

  it('the rule set carries every mastery rule with its source kind and minimum gain', () => {
    expect(rules.mastery).toEqual({
      betweenWindows: { id: 'MER-01', sourceKind: 'skill_status_transition', minRankGain: 1 },
      withinWindow: { id: 'MER-02', sourceKind: 'subskill_state_up', minRankGain: 1 },
      band: { id: 'MER-03', sourceKind: 'band_progression', minRankGain: 1 },
      trendAboveGoal: { id: 'MER-05', sourceKind: 'cbm_trend_above_goal', minRankGain: 1 },
      domainEscalation: { id: 'MER-04', sourceKind: 'domain_status_escalation', minRankGain: 1 },
    });
    const raw = () => JSON.parse(JSON.stringify(rules.data));
    const noBand = raw();
    noBand.mastery.rules = noBand.mastery.rules.filter((r: { id: string }) => r.id !== 'MER-03');
    expect(() => ruleSetOf(noBand)).toThrow(/missing MER-03/);
    const swapped = raw();
    swapped.mastery.rules[0].sourceKind = 'subskill_state_up';
    expect(() => ruleSetOf(swapped)).toThrow(/MER-01 must earn skill_status_transition/);
    const halt = raw();
    halt.mastery.rules[0].sourceKind = 'do_not_decide_yet';
    expect(() => ruleSetOf(halt)).toThrow(/malformed/);
  });

  it('a higher minimum gain asks for a bigger step', () => {
    const raw = JSON.parse(JSON.stringify(rules.data));
    for (const r of raw.mastery.rules) r.minRankGain = 2;
    const strict = ruleSetOf(raw);
    expect(statusMasteryOf(decided('MOY', 'on_track'), [st('BOY', 'developing')], strict)).toBeNull();
    expect(statusMasteryOf(decided('MOY', 'strong'), [st('BOY', 'developing')], strict)).toMatchObject({
      ruleId: 'MER-01',
    });
  });
});
