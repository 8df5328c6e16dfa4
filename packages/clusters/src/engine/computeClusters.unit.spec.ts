import { describe, expect, it } from 'vitest';
import { ClusterRuleSetError, clusterRuleSetOf, CURRENT_CLUSTER_RULE_SET as rules } from '../rules/ruleSet';
import type { StudentClusterInput } from './clusterInputs';
import { computeClusters, deliveryOf } from './computeClusters';
import { computationDigest } from './digest';

let nextRec = 0;
const recommended = (
  studentId: number,
  tier: 'Level_1' | 'Level_2' | 'Level_3' | null,
  bundleId = 'bnd_decoding_foundations',
  anchorSkillGroup = 'decoding',
): StudentClusterInput => ({
  studentId,
  acuteRegressionAlertIds: [],
  profile: { dataIncomplete: false, doNotDecideYet: false },
  recommendation: {
    outcome: 'recommended',
    bundleId,
    anchorSkillGroup,
    scaffoldTier: tier,
    sufficientData: true,
    recommendationId: `00000000-0000-4000-8000-${String(++nextRec).padStart(12, '0')}`,
  },
  weakestStatus: 'developing',
});

describe('cluster rules v1', () => {
  it('CLU-04/05: teacher-led tiers merge Level_1 and Level_2; Level_3 is independent and never merged', () => {
    expect(deliveryOf(rules, 'Level_1')).toEqual({ mode: 'teacher_led', tier: 'MERGE_L1_L2', merged: true });
    expect(deliveryOf(rules, 'Level_2')).toEqual({ mode: 'teacher_led', tier: 'MERGE_L1_L2', merged: true });
    expect(deliveryOf(rules, 'Level_3')).toEqual({ mode: 'independent', tier: 'Level_3', merged: false });
  });

  it('groups (ordered by key) Level_1 and Level_2 children of one bundle into one MERGE_L1_L2 cluster with its rule ids', () => {
    const c = computeClusters(rules, [
      recommended(3, 'Level_2'),
      recommended(1, 'Level_1'),
      recommended(2, 'Level_3'),
      recommended(4, 'Level_3'),
    ]);
    expect(c.ruleSetVersion).toBe('v1');
    expect(c.clusters.map((k) => [k.scaffoldTier, k.compatibleDeliveryMode, k.memberStudentIds, k.ruleIds])).toEqual([
      ['Level_3', 'independent', [2, 4], ['CLU-03', 'CLU-04', 'CLU-06', 'CLU-07']],
      ['MERGE_L1_L2', 'teacher_led', [1, 3], ['CLU-03', 'CLU-04', 'CLU-05', 'CLU-06', 'CLU-07']],
    ]);
  });

  it('CLU-01: an open acute_regression alert puts the child in individualReview, before any other rule', () => {
    const c = computeClusters(rules, [
      { ...recommended(1, 'Level_1'), acuteRegressionAlertIds: ['b', 'a'] },
      {
        ...recommended(2, null),
        profile: { dataIncomplete: true, doNotDecideYet: true },
        acuteRegressionAlertIds: ['c'],
      },
    ]);
    expect(c.individualReview).toEqual([
      { studentId: 1, alertIds: ['a', 'b'], ruleId: 'CLU-01' },
      { studentId: 2, alertIds: ['c'], ruleId: 'CLU-01' },
    ]);
    expect(c.moreDataNeeded).toEqual([]);
  });

  it('CLU-02: DATA_INCOMPLETE, do_not_decide_yet, a blocked or missing recommendation → moreDataNeeded with the reason', () => {
    const base = recommended(0, 'Level_1');
    const c = computeClusters(rules, [
      { ...base, studentId: 1, profile: { dataIncomplete: true, doNotDecideYet: true } },
      { ...base, studentId: 2, profile: { dataIncomplete: false, doNotDecideYet: true } },
      {
        ...base,
        studentId: 3,
        recommendation: {
          ...base.recommendation!,
          outcome: 'blocked_insufficient_evidence',
          bundleId: null,
          sufficientData: false,
        },
      },
      { ...base, studentId: 4, recommendation: null },
      {
        ...base,
        studentId: 5,
        recommendation: { ...base.recommendation!, outcome: 'no_catalog_bundle', bundleId: null },
      },
      { ...base, studentId: 6, profile: null, recommendation: null },
    ]);
    expect(c.moreDataNeeded.map((r) => [r.studentId, r.reason, r.ruleId])).toEqual([
      [1, 'data_incomplete', 'CLU-02'],
      [2, 'do_not_decide_yet', 'CLU-02'],
      [3, 'blocked_insufficient_evidence', 'CLU-02'],
      [4, 'no_recommendation', 'CLU-02'],
      [5, 'no_recommendation', 'CLU-02'],
      [6, 'no_recommendation', 'CLU-02'],
    ]);
    expect(c.clusters).toEqual([]);
  });

  it('CLU-03: without a recommended tier the weakest status token gives it', () => {
    const c = computeClusters(rules, [
      { ...recommended(1, null), weakestStatus: 'strong' },
      { ...recommended(2, null), weakestStatus: 'on_track' },
    ]);
    expect(c.clusters.map((k) => k.scaffoldTier)).toEqual(['Level_3']);
  });

  it('CLU-07: a cluster below the minimum is dropped silently: its children are in neither list', () => {
    const inputs = [
      recommended(1, 'Level_1'),
      recommended(2, 'Level_2'),
      recommended(3, 'Level_1'),
      recommended(4, 'Level_3'),
      recommended(5, 'Level_1', 'bnd_meaning_making', 'comprehension'),
    ];
    const two = computeClusters(rules, inputs);
    expect(two.clusters.map((k) => k.memberStudentIds)).toEqual([[1, 2, 3]]);
    expect(two.droppedStudentIds).toEqual([4, 5]);
    expect(two.individualReview).toEqual([]);
    expect(two.moreDataNeeded).toEqual([]);
    expect(computeClusters(rules, inputs, 3).clusters).toHaveLength(1);
    expect(computeClusters(rules, inputs, 4).clusters).toEqual([]);
    expect(computeClusters(rules, inputs, 4).droppedStudentIds).toEqual([1, 2, 3, 4, 5]);
  });

  it('is deterministic: input order never changes the answer or its digest', () => {
    const inputs = [
      recommended(1, 'Level_1'),
      recommended(2, 'Level_2'),
      recommended(3, 'Level_3'),
      recommended(4, 'Level_3'),
    ];
    const a = computeClusters(rules, inputs);
    const b = computeClusters(rules, [...inputs].reverse());
    expect(b).toEqual(a);
    expect(computationDigest(b)).toBe(computationDigest(a));
    expect(computationDigest(computeClusters(rules, inputs, 3))).not.toBe(computationDigest(a));
  });

  it('a malformed rule set never loads', () => {
    expect(() => clusterRuleSetOf({ ...rules, dimensions: ['bundle_id'] })).toThrow(ClusterRuleSetError);
    expect(() => clusterRuleSetOf({ ...rules, rules: [...rules.rules, rules.rules[0]] })).toThrow(ClusterRuleSetError);
    expect(() =>
      clusterRuleSetOf({ ...rules, deliveryModeOfTier: { ...rules.deliveryModeOfTier, Level_3: 'online' } }),
    ).toThrow(ClusterRuleSetError);
    expect(rules.minClusterSize).toEqual({ default: 2, schoolMin: 3, schoolMax: 5 });
    expect(rules.generationTtlDays).toBe(60);
  });
});
