import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MASTERY_EVENT_SOURCE_KINDS, type MasteryEventSourceKind } from '../codes';
import { type RuleSet, ruleSetV1, CURRENT_RULE_SET as rules } from '../rules';
import { type Decision, decide, evolve, type MasteryInput } from './decideMasteryEvent';
import { EMPTY_LEDGER, type LedgerState } from './ledgerState';

const none = new Set<string>();
let n = 0;
const event = (sourceKind: MasteryEventSourceKind, schoolDay = '2026-11-01', sessionId = 's1'): MasteryInput => ({
  masteryEventId: `m${n++}`,
  sourceKind,
  schoolDay,
  sessionId,
});

function run(inputs: MasteryInput[], ruleSet: RuleSet = rules): { state: LedgerState; decisions: Decision[] } {
  let state = EMPTY_LEDGER;
  const decisions: Decision[] = [];
  for (const input of inputs) {
    const d = decide(state, input, ruleSet, none);
    decisions.push(d);
    state = evolve(state, input, d);
  }
  return { state, decisions };
}

describe('rule sets', () => {
  it('v2 is current and differs from v1 only in paying a badge bonus past the cap', () => {
    expect(rules.version).toBe(2);
    expect({ ...rules, version: 1, badgeBonusCapped: true }).toEqual(ruleSetV1);
  });

  it('has the eight source kinds priced, 15 badges that each cite a source kind, and unique codes', () => {
    expect(Object.keys(rules.xpBySourceKind).sort()).toEqual([...MASTERY_EVENT_SOURCE_KINDS].sort());
    expect(rules.badges).toHaveLength(15);
    expect(new Set(rules.badges.map((b) => b.code)).size).toBe(15);
    for (const b of rules.badges) {
      expect(b.cites.length, b.code).toBeGreaterThan(0);
      for (const form of ['male', 'female', 'neutral'] as const) {
        expect(b.nameAr[form]).toMatch(/[\u0600-\u06FF]/);
        expect(b.descriptionAr[form]).toMatch(/[\u0600-\u06FF]/);
      }
    }
  });
});

describe('decide', () => {
  it('credits XP by source kind and awards the first badge on the first event', () => {
    const { decisions } = run([event('band_progression')]);
    expect(decisions[0]).toMatchObject({ xpCredit: 25, badge: { code: 'first_step' }, badgeBonus: 15, ruleVersion: 2 });
  });

  it('awards at most one badge per evaluation, and the next eligible one later, never twice', () => {
    const { decisions, state } = run([
      event('band_progression'),
      event('subskill_state_up'),
      event('band_progression'),
    ]);
    expect(decisions.map((d) => d.badge?.code ?? null)).toEqual(['first_step', 'band_riser', null]);
    expect([...state.badgeCodes].sort()).toEqual(['band_riser', 'first_step']);
  });

  it('v1: caps the XP of one session at 200, badge bonuses included, so a badge past the cap brings 0', () => {
    const { decisions } = run(
      [...Array.from({ length: 12 }, () => event('bundle_completion')), event('band_progression')],
      ruleSetV1,
    );
    const total = decisions.reduce((sum, d) => sum + d.xpCredit + d.badgeBonus, 0);
    expect(total).toBe(200);
    expect(decisions.at(-1)).toMatchObject({
      xpCredit: 0,
      badge: { code: 'band_riser' },
      badgeBonus: 0,
      ruleVersion: 1,
    });
  });

  it('v2: caps mastery credits at 200 per session, but a badge past the cap still brings its full bonus', () => {
    const { decisions } = run([
      ...Array.from({ length: 12 }, () => event('bundle_completion')),
      event('band_progression'),
    ]);
    expect(decisions.reduce((sum, d) => sum + d.xpCredit, 0)).toBeLessThanOrEqual(200);
    expect(decisions.slice(0, 12).reduce((sum, d) => sum + d.xpCredit + d.badgeBonus, 0)).toBe(200);
    expect(decisions.at(-1)).toMatchObject({
      xpCredit: 0,
      badge: { code: 'band_riser' },
      badgeBonus: 15,
      ruleVersion: 2,
    });
  });

  it('advances the avatar tier at 5, 15, 35 and 75 mastery events, once each', () => {
    const days = Array.from({ length: 80 }, (_, i) => event('scaffold_tier_step_up', '2026-11-01', `s${i}`));
    const { decisions } = run(days);
    const advances = decisions.flatMap((d, i) => (d.tierAdvancedTo ? [[i + 1, d.tierAdvancedTo]] : []));
    expect(advances).toEqual([
      [5, 2],
      [15, 3],
      [35, 4],
      [75, 5],
    ]);
  });

  it('reports streak milestones at 5 consecutive school days', () => {
    // 2026-11-01 is a Sunday; Sunday-Thursday are school days.
    const days = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05'];
    const { decisions } = run(days.map((d) => event('cbm_trend_above_goal', d, d)));
    expect(decisions.map((d) => d.streakMilestone)).toEqual([null, null, null, null, 5]);
    expect(decisions.at(-1)?.streak).toMatchObject({ current: 5, longest: 5, lastTickDate: '2026-11-05' });
  });
});

describe('properties', () => {
  const arbitraryEvent = fc.record({
    sourceKind: fc.constantFrom(...MASTERY_EVENT_SOURCE_KINDS),
    day: fc.integer({ min: 0, max: 40 }),
    session: fc.integer({ min: 0, max: 3 }),
  });

  it('never credits more mastery XP than the cap per session, pays every badge a bonus, never repeats a badge', () => {
    fc.assert(
      fc.property(fc.array(arbitraryEvent, { maxLength: 120 }), (raw) => {
        const inputs = raw.map((r) =>
          event(r.sourceKind, new Date(Date.UTC(2026, 10, 1 + r.day)).toISOString().slice(0, 10), `s${r.session}`),
        );
        const { state, decisions } = run(inputs);
        const perSession = new Map<string, number>();
        inputs.forEach((input, i) => {
          const d = decisions[i]!;
          perSession.set(input.sessionId, (perSession.get(input.sessionId) ?? 0) + d.xpCredit);
          // Every badge has XP a rescind can take back (reversalDelta negative).
          if (d.badge) expect(d.badgeBonus).toBe(rules.badgeBonusXp);
        });
        for (const total of perSession.values()) expect(total).toBeLessThanOrEqual(rules.sessionXpCap);
        const awarded = decisions.flatMap((d) => (d.badge ? [d.badge.code] : []));
        expect(new Set(awarded).size).toBe(awarded.length);
        expect(state.masteryCount).toBe(inputs.length);
      }),
    );
  });
});
