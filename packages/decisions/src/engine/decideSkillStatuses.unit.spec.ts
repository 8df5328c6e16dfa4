import type { ReadEvidence, SittingEvidence, StudentEvidence, VoidedEvidence } from '@qiraa/assessment';
import { toApiError } from '@qiraa/http-kit';
import { describe, expect, it } from 'vitest';
import { CURRENT_RULE_SET, RuleSetError, ruleSetOf } from '../rules/ruleSet';
import { decideSkillStatuses, lowerMedian, tokenOfPercent } from './decideSkillStatuses';
import type { SkillStatusDecision } from './skillStatusTypes';

const rules = CURRENT_RULE_SET;
const YEAR = '2026-2027';

/** A sitting whose questions of one sub-skill have the given correctness (null: unanswered). */
function sitting(
  id: string,
  subSkillId: string,
  correct: (boolean | null)[],
  window: SittingEvidence['window'] = 'BOY',
): SittingEvidence {
  return {
    kind: 'digital_sitting',
    attemptId: id,
    academicYear: YEAR,
    window,
    grade: 2,
    mode: 'window',
    startedAt: '2026-09-10T08:00:00Z',
    endedAt: '2026-09-10T08:20:00Z',
    endReason: 'completed',
    startedEventId: `${id}-start`,
    endedEventId: `${id}-end`,
    subSkillIds: [subSkillId],
    questions: correct.map((c, position) => ({
      position,
      itemId: `${id}-item-${position}`,
      measureCode: 'word_recognition',
      subSkillId,
      correct: c,
      eventId: c === null ? null : `${id}-answer-${position}`,
    })),
    measures: [
      {
        measureCode: 'word_recognition',
        raw: correct.filter((c) => c === true).length,
        max: correct.length,
        level: null,
        complete: correct.every((c) => c !== null),
        provisional: false,
        cutVersion: null,
      },
    ],
  };
}

function read(id: string, band: ReadEvidence['band'], at = '2026-09-11T08:00:00Z'): ReadEvidence {
  return {
    kind: 'oral_word_list',
    attemptId: id,
    cell: 'oral_familiar_words',
    academicYear: YEAR,
    window: 'BOY',
    grade: 2,
    at,
    eventIds: [`${id}-read`],
    timed: true,
    attempted: 20,
    errors: 2,
    correct: 18,
    elapsedSeconds: 60,
    wcpm: 18,
    accuracy: 90,
    accuracyBand: band,
    rateBand: band,
    band,
    bandBasis: band ? 'lower_of' : null,
    provisional: true,
    cutVersion: band ? 'global-2026.1' : null,
  };
}

function voided(id: string, kind: VoidedEvidence['kind'], subSkillIds: string[] = []): VoidedEvidence {
  return {
    attemptId: id,
    kind,
    cell: kind === 'digital_sitting' ? 'digital' : 'oral_familiar_words',
    academicYear: YEAR,
    window: 'BOY',
    subSkillIds,
    voidEventId: `${id}-void`,
    voidId: 1,
    voidedAt: '2026-09-12T08:00:00Z',
  };
}

const evidenceOf = (parts: Partial<StudentEvidence>): StudentEvidence => ({
  studentId: 7,
  sittings: [],
  reads: [],
  voided: [],
  allVoidedWindows: [],
  ...parts,
});

const FW = 'fw_common_words';
const only = (e: StudentEvidence) => {
  const decisions = decideSkillStatuses(e, rules);
  expect(decisions).toHaveLength(1);
  return decisions[0] as SkillStatusDecision;
};

describe('decideSkillStatuses (rule set v1)', () => {
  it('ADR-01 + SSR-01: three or more digital items decide on percent correct', () => {
    const d = only(evidenceOf({ sittings: [sitting('s1', FW, [true, true, true, false])] }));
    expect(d).toMatchObject({
      adrRuleId: 'ADR-01',
      ssrRuleId: 'SSR-01',
      status: 'on_track',
      doNotDecideYet: false,
      holdReason: null,
      ruleSetVersion: 'v1',
    });
    expect(d.evidence.items).toEqual({ answered: 4, correct: 3, percent: 75, token: 'on_track' });
    expect(d.evidenceEventIds).toEqual([
      's1-answer-0',
      's1-answer-1',
      's1-answer-2',
      's1-answer-3',
      's1-end',
      's1-start',
    ]);
  });

  it('SSR-01: the percent cuts rise beginning < developing (33) < on_track (66) < strong (90)', () => {
    expect(tokenOfPercent(100, rules)).toBe('strong');
    expect(tokenOfPercent(90, rules)).toBe('strong');
    expect(tokenOfPercent(89, rules)).toBe('on_track');
    expect(tokenOfPercent(66, rules)).toBe('on_track');
    expect(tokenOfPercent(65, rules)).toBe('developing');
    expect(tokenOfPercent(33, rules)).toBe('developing');
    expect(tokenOfPercent(32, rules)).toBe('beginning');
    expect(tokenOfPercent(0, rules)).toBe('beginning');
    // Whole percents rounded down match the measure cuts of a 3-item measure: 1/3 developing, 2/3 on_track.
    expect(only(evidenceOf({ sittings: [sitting('s', FW, [true, false, false])] })).status).toBe('developing');
    expect(only(evidenceOf({ sittings: [sitting('s', FW, [true, true, false])] })).status).toBe('on_track');
  });

  it('ADR-01 pools the items of every ended sitting of the window (a re-diagnostic adds to the window sitting)', () => {
    const d = only(evidenceOf({ sittings: [sitting('a', FW, [true, false]), sitting('b', FW, [true, true])] }));
    expect(d).toMatchObject({ adrRuleId: 'ADR-01', ssrRuleId: 'SSR-01', status: 'on_track' });
    expect(d.evidence.items).toMatchObject({ answered: 4, correct: 3 });
  });

  it('ADR-02 + SSR-02: one banded oral probe decides on its band', () => {
    const d = only(evidenceOf({ reads: [read('r1', 'developing')] }));
    expect(d).toMatchObject({ adrRuleId: 'ADR-02', ssrRuleId: 'SSR-02', status: 'developing', doNotDecideYet: false });
    expect(d.evidence.provisional).toBe(true);
  });

  it('SSR-02: several probes take the median band, the lower middle one of an even count', () => {
    expect(lowerMedian(['strong', 'beginning', 'on_track'])).toBe('on_track');
    expect(lowerMedian(['strong', 'developing'])).toBe('developing');
    const d = only(
      evidenceOf({
        reads: [
          read('r1', 'strong', '2026-09-11T08:00:00Z'),
          read('r2', 'beginning', '2026-09-12T08:00:00Z'),
          read('r3', 'on_track', '2026-09-13T08:00:00Z'),
        ],
      }),
    );
    expect(d).toMatchObject({ ssrRuleId: 'SSR-02', status: 'on_track' });
  });

  it('ADR-02 wins over too few digital items: the probe decides alone', () => {
    const d = only(evidenceOf({ sittings: [sitting('s', FW, [false, false])], reads: [read('r', 'strong')] }));
    expect(d).toMatchObject({ adrRuleId: 'ADR-02', ssrRuleId: 'SSR-02', status: 'strong' });
    expect(d.evidence.items.token).toBeNull();
  });

  it('ADR-03 + SSR-03: digital and oral within one step agree, and the lower of the two is the status', () => {
    const d = only(
      evidenceOf({ sittings: [sitting('s', FW, [true, true, true, true])], reads: [read('r', 'on_track')] }),
    );
    expect(d).toMatchObject({ adrRuleId: 'ADR-03', ssrRuleId: 'SSR-03', status: 'on_track', doNotDecideYet: false });
    expect(d.evidence.oralToken).toBe('on_track');
    expect(d.evidence.items.token).toBe('strong');
  });

  it('ADR-03 + SSR-04: sources two or more steps apart are split: do_not_decide_yet, no status', () => {
    const d = only(
      evidenceOf({ sittings: [sitting('s', FW, [true, true, true, true])], reads: [read('r', 'developing')] }),
    );
    expect(d).toMatchObject({
      adrRuleId: 'ADR-03',
      ssrRuleId: 'SSR-04',
      status: null,
      doNotDecideYet: true,
      holdReason: 'split_evidence',
    });
  });

  it('ADR-09: fewer than three items and no banded probe is insufficient: do_not_decide_yet, no status rule', () => {
    const d = only(evidenceOf({ sittings: [sitting('s', FW, [true, true])], reads: [read('r', null)] }));
    expect(d).toMatchObject({
      adrRuleId: 'ADR-09',
      ssrRuleId: null,
      status: null,
      doNotDecideYet: true,
      holdReason: 'insufficient_evidence',
    });
    expect(d.evidence.reads).toHaveLength(1);
  });

  it('ADR-09: unanswered questions are not items (a sitting stopped early)', () => {
    const d = only(evidenceOf({ sittings: [sitting('s', FW, [true, true, null, null])] }));
    expect(d).toMatchObject({ adrRuleId: 'ADR-09', doNotDecideYet: true });
    expect(d.evidence.items.answered).toBe(2);
  });

  it('no-evidence row: every attempt of the window voided gives null rule ids, doNotDecideYet, not assessed', () => {
    const decisions = decideSkillStatuses(
      evidenceOf({
        voided: [voided('s', 'digital_sitting', [FW, 'lc_explicit_detail']), voided('w', 'oral_word_list')],
        allVoidedWindows: [{ academicYear: YEAR, window: 'BOY' }],
      }),
      rules,
    );
    expect(decisions.map((d) => d.subSkillId)).toEqual([FW, 'lc_explicit_detail']);
    for (const d of decisions) {
      expect(d).toMatchObject({
        adrRuleId: null,
        ssrRuleId: null,
        status: null,
        doNotDecideYet: true,
        holdReason: 'not_assessed',
      });
      expect(d.evidenceEventIds).toEqual([]);
    }
    expect(decisions[0]?.voidEventIds).toEqual(['s-void', 'w-void']);
  });

  it('a void removes its attempt: the rest decides, and the void id is part of the decision', () => {
    const d = only(
      evidenceOf({
        sittings: [sitting('s2', FW, [true, true, true])],
        voided: [voided('s1', 'digital_sitting', [FW])],
      }),
    );
    expect(d).toMatchObject({ adrRuleId: 'ADR-01', status: 'strong' });
    expect(d.evidenceEventIds.some((id) => id.startsWith('s1'))).toBe(false);
    expect(d.voidEventIds).toEqual(['s1-void']);
    expect(d.evidence.voidedAttempts).toBe(1);
  });

  it('is deterministic and keeps windows apart', () => {
    const e = evidenceOf({
      sittings: [sitting('b', FW, [true, true, true], 'BOY'), sitting('m', FW, [false, false, false], 'MOY')],
    });
    const once = decideSkillStatuses(e, rules);
    expect(decideSkillStatuses(e, rules)).toEqual(once);
    expect(once.map((d) => [d.window, d.status])).toEqual([
      ['BOY', 'strong'],
      ['MOY', 'beginning'],
    ]);
  });
});

describe('rule set validation', () => {
  const raw = () => JSON.parse(JSON.stringify(rules.data));

  it('a rule set that does not load is the decision engine unavailable: 503 ENGINE_UNAVAILABLE', () => {
    let thrown: unknown;
    try {
      ruleSetOf({ ...raw(), version: 'one' });
    } catch (error) {
      thrown = error;
    }
    const answer = toApiError(thrown, {} as never);
    expect([answer.status, answer.code]).toEqual([503, 'ENGINE_UNAVAILABLE']);
  });

  it('loads v1 with the thresholds of its rules', () => {
    expect(rules).toMatchObject({ version: 'v1', minItems: 3, minBandedProbes: 1, maxAgreeingGap: 1 });
  });

  it('refuses a malformed rule set, a missing rule, or thresholds that do not fit together', () => {
    expect(() => ruleSetOf({ ...raw(), version: 'one' })).toThrow(RuleSetError);
    const noSplit = raw();
    noSplit.status = noSplit.status.filter((r: { id: string }) => r.id !== 'SSR-04');
    expect(() => ruleSetOf(noSplit)).toThrow(/missing SSR-04/);
    const gap = raw();
    gap.status.find((r: { id: string }) => r.id === 'SSR-04').minRankGap = 3;
    expect(() => ruleSetOf(gap)).toThrow(/SSR-04 must start/);
    const cuts = raw();
    cuts.status.find((r: { id: string }) => r.id === 'SSR-01').minPercent.on_track = 95;
    expect(() => ruleSetOf(cuts)).toThrow(/must rise/);
  });
});
