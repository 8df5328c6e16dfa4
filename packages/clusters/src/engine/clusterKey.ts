import {
  type ClusterTier,
  DELIVERY_MODES,
  type DeliveryMode,
  DIMENSIONS,
  MERGE_L1_L2,
  SCAFFOLD_TIERS,
} from '../rules/ruleSet';

/** The five dimensions a cluster shares (CLU-06). */
export interface ClusterDimensions {
  bundleId: string;
  anchorSkillGroup: string;
  scaffoldTier: ClusterTier;
  compatibleDeliveryMode: DeliveryMode;
  sufficientData: boolean;
}

/** A dimension value: an id of the system (catalog ids, closed codes), so the key needs no escaping. */
const VALUE = /^[A-Za-z0-9_]{1,64}$/;
/** The whole key: five `name=value` pairs in the canonical order, joined by `;`. */
export const CLUSTER_KEY_PATTERN =
  '^bundle_id=[A-Za-z0-9_]{1,64};anchor_skill_group=[A-Za-z0-9_]{1,64};scaffold_tier=(Level_1|Level_2|Level_3|MERGE_L1_L2);compatible_delivery_mode=(teacher_led|independent);sufficient_data=(true|false)$';

export class ClusterKeyError extends Error {}

/**
 * The canonical clusterKey (CLU-06): `bundle_id=…;anchor_skill_group=…;scaffold_tier=…;
 * compatible_delivery_mode=…;sufficient_data=true|false`. One set of dimensions has exactly one key and a
 * key parses back to exactly its dimensions, so two computes of the same need always agree on the key.
 */
export function clusterKeyOf(d: ClusterDimensions): string {
  for (const v of [d.bundleId, d.anchorSkillGroup]) {
    if (!VALUE.test(v)) throw new ClusterKeyError(`dimension value ${JSON.stringify(v)} is not an id`);
  }
  const values = [d.bundleId, d.anchorSkillGroup, d.scaffoldTier, d.compatibleDeliveryMode, String(d.sufficientData)];
  return DIMENSIONS.map((name, i) => `${name}=${values[i]}`).join(';');
}

/** The dimensions of a key, or null when the string is not a canonical key. */
export function parseClusterKey(key: string): ClusterDimensions | null {
  const parts = key.split(';');
  if (parts.length !== DIMENSIONS.length) return null;
  const values: string[] = [];
  for (const [i, part] of parts.entries()) {
    const [name, value, extra] = part.split('=');
    if (name !== DIMENSIONS[i] || value === undefined || extra !== undefined || !VALUE.test(value)) return null;
    values.push(value);
  }
  const [bundleId, anchorSkillGroup, tier, mode, sufficient] = values as [string, string, string, string, string];
  const tiers: readonly string[] = [...SCAFFOLD_TIERS, MERGE_L1_L2];
  if (!tiers.includes(tier) || !(DELIVERY_MODES as readonly string[]).includes(mode)) return null;
  if (sufficient !== 'true' && sufficient !== 'false') return null;
  return {
    bundleId,
    anchorSkillGroup,
    scaffoldTier: tier as ClusterTier,
    compatibleDeliveryMode: mode as DeliveryMode,
    sufficientData: sufficient === 'true',
  };
}
