import { describe, expect, it } from 'vitest';
import { CLUSTER_KEY_PATTERN, ClusterKeyError, clusterKeyOf, parseClusterKey } from './clusterKey';

const dims = {
  bundleId: 'bnd_decoding_foundations',
  anchorSkillGroup: 'decoding',
  scaffoldTier: 'MERGE_L1_L2' as const,
  compatibleDeliveryMode: 'teacher_led' as const,
  sufficientData: true,
};

describe('clusterKey (CLU-06)', () => {
  it('is the five dimensions in canonical order', () => {
    expect(clusterKeyOf(dims)).toBe(
      'bundle_id=bnd_decoding_foundations;anchor_skill_group=decoding;scaffold_tier=MERGE_L1_L2;' +
        'compatible_delivery_mode=teacher_led;sufficient_data=true',
    );
  });

  it('does not depend on the order the dimensions are given in', () => {
    const shuffled = {
      sufficientData: true,
      compatibleDeliveryMode: 'teacher_led' as const,
      scaffoldTier: 'MERGE_L1_L2' as const,
      anchorSkillGroup: 'decoding',
      bundleId: 'bnd_decoding_foundations',
    };
    expect(clusterKeyOf(shuffled)).toBe(clusterKeyOf(dims));
  });

  it('parses back to exactly its dimensions and matches the schema pattern', () => {
    const key = clusterKeyOf(dims);
    expect(parseClusterKey(key)).toEqual(dims);
    expect(new RegExp(CLUSTER_KEY_PATTERN).test(key)).toBe(true);
    const independent = clusterKeyOf({
      ...dims,
      scaffoldTier: 'Level_3',
      compatibleDeliveryMode: 'independent',
      sufficientData: false,
    });
    expect(parseClusterKey(independent)).toEqual({
      ...dims,
      scaffoldTier: 'Level_3',
      compatibleDeliveryMode: 'independent',
      sufficientData: false,
    });
  });

  it('differs when any one dimension differs', () => {
    const variants = [
      { ...dims, bundleId: 'bnd_fluency_building' },
      { ...dims, anchorSkillGroup: 'fluency' },
      { ...dims, scaffoldTier: 'Level_3' as const },
      { ...dims, compatibleDeliveryMode: 'independent' as const },
      { ...dims, sufficientData: false },
    ];
    const keys = new Set([clusterKeyOf(dims), ...variants.map(clusterKeyOf)]);
    expect(keys.size).toBe(6);
  });

  it('refuses values that are not ids, and non-canonical strings parse to null', () => {
    expect(() => clusterKeyOf({ ...dims, bundleId: 'a;b' })).toThrow(ClusterKeyError);
    expect(() => clusterKeyOf({ ...dims, anchorSkillGroup: 'x=y' })).toThrow(ClusterKeyError);
    const key = clusterKeyOf(dims);
    for (const bad of [
      '',
      key.split(';').reverse().join(';'),
      key.replace('MERGE_L1_L2', 'Level_9'),
      key.replace('teacher_led', 'online'),
      key.replace('=true', '=yes'),
      `${key};extra=1`,
      key.replace('bundle_id=', 'bundle_id=a=b'),
    ]) {
      expect(parseClusterKey(bad)).toBeNull();
    }
  });
});
