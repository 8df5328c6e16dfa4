import { describe, expect, it } from 'vitest';
import { ruleSetOf, CURRENT_RULE_SET as rules } from '../rules/ruleSet';
import { baselineOf, decideMonitoring, goalLineOf, leastSquares, trendMasteryOf } from './decideMonitoring';
import type { Goal, Probe } from './monitoringTypes';

const Y = '2026-2027';
const START = Date.parse('2026-09-10T08:00:00Z');
const WEEK = 7 * 86_400_000;
/** Grade 2 EOY benchmark of global-2026.1 (on_track 45 WCPM), due on the default EOY window's first day. */
const GOAL: Goal = { goalWcpm: 45, goalOn: '2027-04-19' };

let n = 0;
const probe = (week: number, wcpm: number, band: Probe['band'] = 'developing'): Probe => {
  const id = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
  return {
    attemptId: id,
    at: new Date(START + week * WEEK).toISOString(),
    wcpm,
    band,
    window: 'BOY',
    grade: 2,
    cutVersion: 'global-2026.1',
    cutOrganizationId: null,
    eventIds: [id],
  };
};
/** One probe a week from week 0 with these scores. */
const weekly = (...scores: number[]) => scores.map((s, i) => probe(i, s));
const decide = (probes: Probe[], goal: Goal | null = GOAL, voids: string[] = []) =>
  decideMonitoring({ academicYear: Y, probes, goal, voidEventIds: voids }, rules);

describe('progress monitoring (rule set v1, section monitoring)', () => {
  it('PMR-01 baseline_to_eoy_benchmark: the first banded probe to the EOY benchmark; the weekly gain has a floor', () => {
    const probes = [probe(0, 12, null), probe(1, 25), probe(2, 27)];
    expect(baselineOf(probes)?.wcpm).toBe(25);
    const line = goalLineOf(probes[1]!, GOAL, rules)!;
    // (45 − 25) over the 30.5 weeks from 17 September to 19 April.
    expect(line).toMatchObject({ baselineWcpm: 25, goalWcpm: 45, goalOn: '2027-04-19', weeklyGain: 0.66 });
    // Already at the benchmark: the goal line still rises by the floor (0.5 a week).
    expect(goalLineOf(probe(0, 60), GOAL, rules)!.weeklyGain).toBe(0.5);
    // A baseline in the goal window leaves no weeks: no goal line.
    expect(goalLineOf(probe(31, 40), GOAL, rules)).toBeNull();
  });

  it('PMR-09 do_not_decide_yet: no banded probe, no goal, too few probes, too short a span', () => {
    expect(decide([probe(0, 20, null), probe(1, 22, null)]).trend).toMatchObject({
      ruleId: 'PMR-09',
      decision: null,
      doNotDecideYet: true,
      holdReason: 'no_baseline',
      goalLine: null,
    });
    expect(decide(weekly(25, 27, 29, 31, 33, 35), null).trend).toMatchObject({
      ruleId: 'PMR-09',
      holdReason: 'no_goal',
    });
    expect(decide(weekly(25, 27, 29, 31, 33)).trend).toMatchObject({ ruleId: 'PMR-09', holdReason: 'too_few_probes' });
    // Six probes five days apart: 25 days, under the 35-day minimum span.
    const quick = [0, 5, 10, 15, 20, 25].map((d, i) => probe(d / 7, 25 + i * 3));
    expect(decide(quick).trend).toMatchObject({ ruleId: 'PMR-09', holdReason: 'too_short_span' });
    // No trend line is shown over a short span: two rereads minutes apart are not a weekly rate.
    expect(decide(quick).trend).toMatchObject({ trend: null });
    expect(decide([probe(0, 30), probe(0.0001, 60)]).trend).toMatchObject({ trend: null });
    expect(decide(weekly(25, 27, 29, 31, 33, 35)).trend).toMatchObject({ trend: { probes: 6, spanDays: 35 } });
  });

  it('PMR-02 ols_slope_against_goal_line: above, on and below the goal line by the slope', () => {
    const above = decide(weekly(25, 28, 31, 34, 37, 40)).trend;
    expect(above).toMatchObject({ ruleId: 'PMR-02', decision: 'above_goal', doNotDecideYet: false, holdReason: null });
    expect(above.trend).toEqual({ slope: 3, intercept: 25, probes: 6, spanDays: 35 });
    expect(above.goalLine).toMatchObject({ baselineWcpm: 25, weeklyGain: 0.63 });
    expect(above.probes.map((p) => p.goalLineWcpm)).toEqual([25, 25.6, 26.3, 26.9, 27.5, 28.2]);
    expect(decide(weekly(25, 26, 26, 27, 28, 28)).trend).toMatchObject({ ruleId: 'PMR-02', decision: 'on_goal' });
    expect(decide(weekly(25, 25, 24, 25, 25, 24)).trend).toMatchObject({ ruleId: 'PMR-02', decision: 'below_goal' });
    // Least squares, not the last point: one low last probe does not turn a steep trend below goal.
    expect(decide(weekly(25, 28, 31, 34, 37, 30)).trend.decision).toBe('above_goal');
  });

  it('PMR-03 probe_far_below_trend: a probe 10+ WCPM and 20%+ below the earlier probes’ line opens an alert; a probe back closes it', () => {
    const [a, b, c, d] = weekly(25, 27, 29, 31);
    const low = probe(4, 15);
    const acute = (probes: Probe[]) => decide(probes).alerts.filter((x) => x.alertKind === 'acute_regression');
    const opened = decide([a!, b!, c!, d!, low]);
    expect(acute([a!, b!, c!, d!, low])).toEqual([
      expect.objectContaining({
        alertKind: 'acute_regression',
        ruleId: 'PMR-03',
        anchorAttemptId: low.attemptId,
        status: 'open',
        academicYear: Y,
        detail: { wcpm: 15, predictedWcpm: 33, dropWcpm: 18 },
      }),
    ]);
    expect(opened.trend.probes.at(-1)).toMatchObject({ acuteRegression: true });
    // Another low probe keeps the same alert open; one back near the line closes it.
    const stillLow = probe(5, 16);
    expect(acute([a!, b!, c!, d!, low, stillLow])).toEqual([
      expect.objectContaining({ anchorAttemptId: low.attemptId, status: 'open' }),
    ]);
    const back = probe(6, 36);
    expect(acute([a!, b!, c!, d!, low, stillLow, back])[0]).toMatchObject({
      status: 'closed',
      closeReason: 'recovered',
      evidenceEventIds: [low.attemptId, back.attemptId].sort(),
    });
    // A drop of 7 WCPM is within a probe's noise: nothing.
    expect(acute([a!, b!, c!, d!, probe(4, 26)])).toEqual([]);
    // Fewer than three earlier probes: no line to fall below.
    expect(acute([a!, b!, probe(2, 5)])).toEqual([]);
  });

  it('PMR-04 trend_below_goal_line: a below-goal trend opens an alert, three more probes below escalate it, a recovered trend closes it', () => {
    const flat = weekly(25, 25, 24, 25, 25, 24);
    const opened = decide(flat);
    expect(opened.alerts).toEqual([
      expect.objectContaining({
        alertKind: 'trend_below_goal',
        ruleId: 'PMR-04',
        anchorAttemptId: flat[5]!.attemptId,
        status: 'open',
        detail: { probesBelowGoal: 1 },
      }),
    ]);
    const longer = [...flat, probe(6, 25), probe(7, 24)];
    expect(decide(longer).alerts[0]).toMatchObject({ status: 'open', detail: { probesBelowGoal: 3 } });
    const escalated = [...longer, probe(8, 25)];
    expect(decide(escalated).alerts[0]).toMatchObject({ status: 'escalated', detail: { probesBelowGoal: 4 } });
    const recovered = [...escalated, probe(9, 40), probe(10, 45), probe(11, 50)];
    const closed = decide(recovered);
    expect(closed.trend.decision).not.toBe('below_goal');
    expect(closed.alerts.find((x) => x.alertKind === 'trend_below_goal')).toMatchObject({
      status: 'closed',
      closeReason: 'trend_recovered',
    });
  });

  it('a removed probe (a void) changes the decision; the voids enter the evidence', () => {
    const probes = weekly(25, 28, 31, 34, 37, 40);
    expect(decide(probes).trend.decision).toBe('above_goal');
    const voided = decide(probes.slice(1), GOAL, ['void-1']).trend;
    expect(voided).toMatchObject({ holdReason: 'too_few_probes', voidEventIds: ['void-1'] });
    expect(voided.evidenceEventIds).not.toContain(probes[0]!.attemptId);
    // Deterministic: the input's order does not matter.
    expect(decide([...probes].reverse())).toEqual(decide(probes));
  });

  it('MER-05 trend_above_goal: the first above-goal trend of the year earns cbm_trend_above_goal, once', () => {
    const above = { decision: 'above_goal' as const, doNotDecideYet: false };
    expect(trendMasteryOf(above, [], rules)).toEqual({ ruleId: 'MER-05', sourceKind: 'cbm_trend_above_goal' });
    expect(trendMasteryOf(above, [null, 'below_goal', 'on_goal'], rules)).toEqual({
      ruleId: 'MER-05',
      sourceKind: 'cbm_trend_above_goal',
    });
    expect(trendMasteryOf(above, ['above_goal', 'on_goal'], rules)).toBeNull();
    expect(trendMasteryOf({ decision: 'on_goal', doNotDecideYet: false }, [], rules)).toBeNull();
    expect(trendMasteryOf({ decision: null, doNotDecideYet: true }, [], rules)).toBeNull();
  });

  it('least squares: the slope and intercept of a line; none when every probe is on one day', () => {
    expect(
      leastSquares([
        { x: 0, y: 1 },
        { x: 1, y: 3 },
        { x: 2, y: 5 },
      ]),
    ).toEqual({ slope: 2, intercept: 1 });
    expect(
      leastSquares([
        { x: 1, y: 1 },
        { x: 1, y: 3 },
      ]),
    ).toBeNull();
  });

  it('the rule set’s monitoring section is checked when it loads', () => {
    const raw = () => JSON.parse(JSON.stringify(rules.data));
    const none = raw();
    delete none.monitoring;
    expect(() => ruleSetOf(none)).toThrow(/malformed/);
    const misfit = raw();
    misfit.monitoring.acuteRegression.minPriorProbes = 7;
    expect(() => ruleSetOf(misfit)).toThrow(/PMR-03 minPriorProbes/);
    const noMer05 = raw();
    noMer05.mastery.rules = noMer05.mastery.rules.filter((r: { id: string }) => r.id !== 'MER-05');
    expect(() => ruleSetOf(noMer05)).toThrow(/missing MER-05/);
    const wrongId = raw();
    wrongId.monitoring.trend.id = 'PMR-07';
    expect(() => ruleSetOf(wrongId)).toThrow(/malformed/);
  });
});
