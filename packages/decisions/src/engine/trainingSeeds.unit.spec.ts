import type { SittingEvidence } from '@qiraa/assessment';
import { describe, expect, it } from 'vitest';
import { CURRENT_RULE_SET, RuleSetError, ruleSetOf } from '../rules/ruleSet';
import type { HoldReason, SkillStatusDecision } from './skillStatusTypes';
import { decideTrainingSeeds, type SeedDecision, type SeedHold } from './trainingSeeds';

const rules = CURRENT_RULE_SET;
const v1 = structuredClone(rules.data);
const YEAR = '2026-2027';
const SKILLS = new Map([
  ['word_recognition', 'familiar_word_reading'],
  ['text1_comprehension', 'literal_comprehension'],
]);

interface MeasureSpec {
  code: string;
  subSkills: string[];
  level: 1 | 2 | 3 | 4 | null;
  complete?: boolean;
  provisional?: boolean;
}

/** An ended sitting measuring the given measures (one answered question per listed sub-skill). */
function sitting(id: string, measures: MeasureSpec[], startedAt = '2026-09-10T08:00:00Z'): SittingEvidence {
  const questions = measures.flatMap((m) =>
    m.subSkills.map((subSkillId, i) => ({
      position: i,
      itemId: `${id}-${m.code}-${i}`,
      measureCode: m.code,
      subSkillId,
      correct: true,
      eventId: `${id}-${m.code}-answer-${i}`,
    })),
  );
  return {
    kind: 'digital_sitting',
    attemptId: id,
    academicYear: YEAR,
    window: 'BOY',
    grade: 2,
    mode: 'window',
    startedAt,
    endedAt: startedAt,
    endReason: 'completed',
    startedEventId: `${id}-start`,
    endedEventId: `${id}-end`,
    subSkillIds: [...new Set(questions.map((q) => q.subSkillId))],
    questions,
    measures: measures.map((m) => ({
      measureCode: m.code,
      raw: 3,
      max: 4,
      level: m.level,
      complete: m.complete ?? m.level !== null,
      provisional: m.provisional ?? false,
      cutVersion: m.level === null ? null : 'global-2026.1',
    })),
  };
}

/** A skill-status decision of a BOY sub-skill: decided, or held with the reason. */
function status(subSkillId: string, hold: HoldReason | null = null) {
  const decision = {
    academicYear: YEAR,
    window: 'BOY',
    subSkillId,
    status: hold ? null : 'on_track',
    doNotDecideYet: hold !== null,
    holdReason: hold,
  } as SkillStatusDecision;
  return { decision, decisionId: `dec-${subSkillId}-${hold ?? 'ok'}` };
}

const fw = { code: 'word_recognition', subSkills: ['fw_common_words', 'fw_common_words', 'fw_common_words'] };
const lc = { code: 'text1_comprehension', subSkills: ['lc_explicit_detail', 'lc_event_order'] };

describe('training-level seeds (rule set v1, trainingSeeds)', () => {
  it('TLS-01: a complete measure with a level seeds its skill at the mapped level, with its evidence', () => {
    const s = sitting('s1', [{ ...fw, level: 3 }]);
    const [seed] = decideTrainingSeeds({ sittings: [s] }, [status('fw_common_words')], rules, SKILLS);
    expect(seed).toEqual({
      kind: 'seed',
      ruleId: 'TLS-01',
      academicYear: YEAR,
      window: 'BOY',
      skillId: 'familiar_word_reading',
      measureCode: 'word_recognition',
      sessionId: 's1',
      measureLevel: 3,
      level: 3,
      cutVersion: 'global-2026.1',
      provisional: false,
      evidenceEventIds: [
        's1-end',
        's1-start',
        's1-word_recognition-answer-0',
        's1-word_recognition-answer-1',
        's1-word_recognition-answer-2',
      ],
      statusDecisionIds: ['dec-fw_common_words-ok'],
    } satisfies SeedDecision);
  });

  it('TLS-01: the level is the rule set’s mapping of the measure level, for every level', () => {
    const mapped = ruleSetOf({
      ...v1,
      trainingSeeds: {
        ...v1.trainingSeeds,
        rules: v1.trainingSeeds.rules.map((r) =>
          r.id === 'TLS-01' ? { ...r, trainingLevelOf: { '1': 1, '2': 1, '3': 2, '4': 4 } } : r,
        ),
      },
    });
    const levels = ([1, 2, 3, 4] as const).map(
      (level) =>
        (
          decideTrainingSeeds(
            { sittings: [sitting('s', [{ ...fw, level }])] },
            [status('fw_common_words')],
            mapped,
            SKILLS,
          )[0] as SeedDecision
        ).level,
    );
    expect(levels).toEqual([1, 1, 2, 4]);
    expect(rules.trainingSeeds.seed.trainingLevelOf).toEqual({ 1: 1, 2: 2, 3: 3, 4: 4 });
  });

  it('TLS-01: the latest complete measure of the window wins; a later incomplete one does not unseat it', () => {
    const first = sitting('a', [{ ...fw, level: 2 }], '2026-09-10T08:00:00Z');
    const redo = sitting('b', [{ ...fw, level: 4 }], '2026-09-20T08:00:00Z');
    const cut = sitting('c', [{ ...fw, level: null, complete: false }], '2026-09-25T08:00:00Z');
    const [seed] = decideTrainingSeeds({ sittings: [cut, redo, first] }, [status('fw_common_words')], rules, SKILLS);
    expect(seed).toMatchObject({ kind: 'seed', ruleId: 'TLS-01', sessionId: 'b', level: 4 });
  });

  it('TLS-01: a provisional measure still seeds, marked provisional', () => {
    const s = sitting('s1', [{ ...fw, level: 1, provisional: true }]);
    const [seed] = decideTrainingSeeds({ sittings: [s] }, [status('fw_common_words')], rules, SKILLS);
    expect(seed).toMatchObject({ kind: 'seed', ruleId: 'TLS-01', level: 1, provisional: true });
  });

  it('TLS-01: one seed per skill and window; a measure the catalog does not map seeds nothing', () => {
    const s = sitting('s1', [
      { ...fw, level: 3 },
      { ...lc, level: 2 },
      { code: 'fixture', subSkills: ['x'], level: 4 },
    ]);
    const decided = [status('fw_common_words'), status('lc_explicit_detail'), status('lc_event_order')];
    const outcomes = decideTrainingSeeds({ sittings: [s] }, decided, rules, SKILLS);
    expect(outcomes.map((o) => [o.skillId, o.kind, o.ruleId, (o as SeedDecision).level])).toEqual([
      ['familiar_word_reading', 'seed', 'TLS-01', 3],
      ['literal_comprehension', 'seed', 'TLS-01', 2],
    ]);
  });

  it.each(['insufficient_evidence', 'split_evidence', 'not_assessed'] as const)(
    'TLS-08: a sub-skill the measure covers held %s: no seed, the held decision named',
    (reason) => {
      const s = sitting('s1', [{ ...lc, level: 4 }]);
      const decided = [status('lc_explicit_detail'), status('lc_event_order', reason)];
      const [hold] = decideTrainingSeeds({ sittings: [s] }, decided, rules, SKILLS);
      expect(hold).toMatchObject({
        kind: 'hold',
        ruleId: 'TLS-08',
        reason: 'skill_held',
        skillId: 'literal_comprehension',
        measureCode: 'text1_comprehension',
        statusDecisionIds: ['dec-lc_event_order-' + reason, 'dec-lc_explicit_detail-ok'],
      } satisfies Partial<SeedHold>);
    },
  );

  it('TLS-08: a hold reason the rule set does not halt on lets the seed through; a missing status holds', () => {
    const relaxed = ruleSetOf({
      ...v1,
      trainingSeeds: {
        ...v1.trainingSeeds,
        rules: v1.trainingSeeds.rules.map((r) =>
          r.id === 'TLS-08' ? { ...r, haltOn: ['split_evidence' as const] } : r,
        ),
      },
    });
    const s = sitting('s1', [{ ...lc, level: 4 }]);
    const decided = [status('lc_explicit_detail'), status('lc_event_order', 'insufficient_evidence')];
    expect(decideTrainingSeeds({ sittings: [s] }, decided, relaxed, SKILLS)[0]).toMatchObject({
      kind: 'seed',
      level: 4,
    });
    expect(decideTrainingSeeds({ sittings: [s] }, [status('lc_explicit_detail')], rules, SKILLS)[0]).toMatchObject({
      kind: 'hold',
      ruleId: 'TLS-08',
    });
  });

  it('TLS-09: no sitting of the window completed a measure of the skill with a level: no seed', () => {
    const stopped = sitting('s1', [{ ...fw, level: null, complete: false }]);
    const noCuts = sitting('s2', [{ ...fw, level: null, complete: true }], '2026-09-11T08:00:00Z');
    const [hold] = decideTrainingSeeds({ sittings: [stopped, noCuts] }, [status('fw_common_words')], rules, SKILLS);
    expect(hold).toEqual({
      kind: 'hold',
      ruleId: 'TLS-09',
      reason: 'no_complete_measure',
      academicYear: YEAR,
      window: 'BOY',
      skillId: 'familiar_word_reading',
      measureCode: 'word_recognition',
      evidenceEventIds: ['s1-end', 's1-start', 's2-end', 's2-start'],
      statusDecisionIds: [],
    } satisfies SeedHold);
  });

  it('is deterministic: the order of the evidence does not matter', () => {
    const a = sitting(
      'a',
      [
        { ...fw, level: 2 },
        { ...lc, level: 3 },
      ],
      '2026-09-10T08:00:00Z',
    );
    const b = sitting('b', [{ ...fw, level: 4 }], '2026-09-20T08:00:00Z');
    const decided = [status('fw_common_words'), status('lc_explicit_detail'), status('lc_event_order')];
    expect(decideTrainingSeeds({ sittings: [b, a] }, decided, rules, SKILLS)).toEqual(
      decideTrainingSeeds({ sittings: [a, b] }, [...decided].reverse(), rules, SKILLS),
    );
  });

  it('the rule set refuses a missing TLS rule and a mapping that falls as the measure level rises', () => {
    const without = { ...v1, trainingSeeds: { ...v1.trainingSeeds, rules: v1.trainingSeeds.rules.slice(1) } };
    expect(() => ruleSetOf(without)).toThrow(new RuleSetError('v1', 'missing TLS-01'));
    const falling = {
      ...v1,
      trainingSeeds: {
        ...v1.trainingSeeds,
        rules: v1.trainingSeeds.rules.map((r) =>
          r.id === 'TLS-01' ? { ...r, trainingLevelOf: { '1': 2, '2': 1, '3': 3, '4': 4 } } : r,
        ),
      },
    };
    expect(() => ruleSetOf(falling)).toThrow(/must not fall/);
    const badReason = {
      ...v1,
      trainingSeeds: {
        ...v1.trainingSeeds,
        rules: v1.trainingSeeds.rules.map((r) => (r.id === 'TLS-08' ? { ...r, haltOn: ['struggling' as never] } : r)),
      },
    };
    expect(() => ruleSetOf(badReason)).toThrow(/malformed/);
  });
});
