import { describe, expect, it } from 'vitest';
import { CURRENT_ALERT_RULES, daysBetween, decideTrainingAlerts, type StayDay } from './alertRules';

const day = (date: string, counted: number, correct: number): StayDay => ({ date, counted, correct });
const kinds = (stay: Parameters<typeof decideTrainingAlerts>[0]) => decideTrainingAlerts(stay).map((a) => a.kind);

describe('training alert rules (alerts-v1)', () => {
  it('TAL-01 no_progress_at_level: the last 3 ended days, each 3+ counted, all below 60 percent', () => {
    const days = [day('2026-10-04', 8, 7), day('2026-10-05', 5, 2), day('2026-10-06', 4, 2), day('2026-10-07', 3, 1)];
    const [alert] = decideTrainingAlerts({ level: 2, since: '2026-10-01', days });
    expect(alert).toEqual({
      kind: 'no_progress_at_level',
      ruleId: 'TAL-01',
      evidence: { sessions: days.slice(1), daysAtLevel: 6 },
    });
    // Two bad days are not three.
    expect(kinds({ level: 2, since: '2026-10-01', days: days.slice(0, 3) })).toEqual([]);
  });

  it('TAL-01 needs every one of the three below 60 percent: exactly 60 percent is not below', () => {
    const bad = [day('2026-10-05', 5, 2), day('2026-10-06', 4, 2)];
    expect(kinds({ level: 3, since: '2026-10-01', days: [...bad, day('2026-10-07', 5, 3)] })).toEqual([]);
    expect(kinds({ level: 3, since: '2026-10-01', days: [...bad, day('2026-10-07', 5, 2)] })).toEqual([
      'no_progress_at_level',
    ]);
  });

  it('TAL-01 needs 3 or more counted answers on each of the three days', () => {
    const stay = {
      level: 2,
      since: '2026-10-01',
      days: [day('2026-10-05', 5, 0), day('2026-10-06', 2, 0), day('2026-10-07', 5, 0)],
    };
    expect(kinds(stay)).toEqual([]);
  });

  it('TAL-02 support_review_suggested: 21 days at level 1 with 3 or more training days', () => {
    const days = [day('2026-10-01', 8, 6), day('2026-10-10', 8, 6), day('2026-10-22', 8, 6)];
    const [alert] = decideTrainingAlerts({ level: 1, since: '2026-10-01', days });
    expect(alert).toEqual({
      kind: 'support_review_suggested',
      ruleId: 'TAL-02',
      evidence: { sessions: days, daysAtLevel: 21 },
    });
    // Day 20 is not yet 21 days; two training days are not three; level 2 never suggests a review.
    expect(kinds({ level: 1, since: '2026-10-01', days: [days[0]!, days[1]!, day('2026-10-21', 8, 6)] })).toEqual([]);
    expect(kinds({ level: 1, since: '2026-10-01', days: [days[0]!, days[2]!] })).toEqual([]);
    expect(kinds({ level: 2, since: '2026-10-01', days })).toEqual([]);
  });

  it('raises both when both hold, and nothing for a stay without an ended day', () => {
    const days = [day('2026-10-18', 4, 1), day('2026-10-20', 4, 1), day('2026-10-22', 4, 1)];
    expect(kinds({ level: 1, since: '2026-10-01', days })).toEqual([
      'no_progress_at_level',
      'support_review_suggested',
    ]);
    expect(kinds({ level: 1, since: '2026-10-01', days: [] })).toEqual([]);
  });

  it('counts calendar days from the level’s first day; the rule set is versioned data', () => {
    expect(daysBetween('2026-10-01', '2026-10-01')).toBe(0);
    expect(daysBetween('2026-10-25', '2026-11-15')).toBe(21);
    expect(CURRENT_ALERT_RULES.version).toBe('alerts-v1');
    expect([
      CURRENT_ALERT_RULES.noProgress.ruleId,
      CURRENT_ALERT_RULES.supportReview.ruleId,
      CURRENT_ALERT_RULES.resolve.ruleId,
    ]).toEqual(['TAL-01', 'TAL-02', 'TAL-03']);
  });
});
