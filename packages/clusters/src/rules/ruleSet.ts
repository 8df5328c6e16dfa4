import { readFileSync } from 'node:fs';
import { type Static, Type } from 'typebox';
import Value from 'typebox/value';

/** The spec's tier names (Level_1..3) and the merged tier of teacher-led delivery (CLU-05). */
export const SCAFFOLD_TIERS = ['Level_1', 'Level_2', 'Level_3'] as const;
export type ScaffoldTier = (typeof SCAFFOLD_TIERS)[number];
export const MERGE_L1_L2 = 'MERGE_L1_L2' as const;
export type ClusterTier = ScaffoldTier | typeof MERGE_L1_L2;
/** Delivery modes a cluster can share (closed list): a teacher with the small group, or the child alone online. */
export const DELIVERY_MODES = ['teacher_led', 'independent'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];
export const DIMENSIONS = [
  'bundle_id',
  'anchor_skill_group',
  'scaffold_tier',
  'compatible_delivery_mode',
  'sufficient_data',
] as const;

const Tier = Type.Union([Type.Literal('Level_1'), Type.Literal('Level_2'), Type.Literal('Level_3')]);
const Mode = Type.Union([Type.Literal('teacher_led'), Type.Literal('independent')]);

/** The shape of `rules/v<N>.json`, checked when the module loads (a malformed rule set never starts). */
const RuleSetSchema = Type.Object({
  version: Type.String({ pattern: '^v[0-9]+$' }),
  publishedAt: Type.String(),
  dimensions: Type.Array(Type.String()),
  rules: Type.Array(
    Type.Object({ id: Type.String({ pattern: '^CLU-[0-9]{2}$' }), name: Type.String(), note: Type.String() }),
  ),
  tierOfToken: Type.Object({ beginning: Tier, developing: Tier, on_track: Tier, strong: Tier }),
  tierOfMeasureLevel: Type.Object({ '1': Tier, '2': Tier, '3': Tier, '4': Tier }),
  deliveryModeOfTier: Type.Object({ Level_1: Mode, Level_2: Mode, Level_3: Mode }),
  mergeForDeliveryModes: Type.Array(Mode),
  minClusterSize: Type.Object({
    default: Type.Integer({ minimum: 2 }),
    schoolMin: Type.Integer({ minimum: 2 }),
    schoolMax: Type.Integer({ minimum: 2 }),
  }),
  generationTtlDays: Type.Integer({ minimum: 1 }),
});
export type ClusterRuleSet = Static<typeof RuleSetSchema>;

export class ClusterRuleSetError extends Error {}

/** Checks a parsed rule set: its shape, the five dimensions in canonical order, rule ids unique. */
export function clusterRuleSetOf(raw: unknown): ClusterRuleSet {
  if (!Value.Check(RuleSetSchema, raw)) {
    const first = [...Value.Errors(RuleSetSchema, raw)][0];
    throw new ClusterRuleSetError(`cluster rule set malformed: ${first?.instancePath ?? ''} ${first?.message ?? ''}`);
  }
  if (raw.dimensions.join(',') !== DIMENSIONS.join(',')) {
    throw new ClusterRuleSetError(`cluster rule set ${raw.version}: dimensions must be ${DIMENSIONS.join(',')}`);
  }
  const ids = raw.rules.map((r) => r.id);
  if (new Set(ids).size !== ids.length)
    throw new ClusterRuleSetError(`cluster rule set ${raw.version}: duplicate rule id`);
  const { default: d, schoolMin, schoolMax } = raw.minClusterSize;
  if (!(schoolMin <= schoolMax && d <= schoolMax)) {
    throw new ClusterRuleSetError(`cluster rule set ${raw.version}: minClusterSize bounds out of order`);
  }
  return raw;
}

const load = (file: string) =>
  clusterRuleSetOf(JSON.parse(readFileSync(new URL(`../../rules/${file}`, import.meta.url), 'utf8')));

/** Every published cluster rule set by version; a generation pins one and is always read with it. */
export const CLUSTER_RULE_SETS: ReadonlyMap<string, ClusterRuleSet> = new Map([['v1', load('v1.json')]]);
export const CURRENT_CLUSTER_RULE_SET: ClusterRuleSet = CLUSTER_RULE_SETS.get('v1')!;
