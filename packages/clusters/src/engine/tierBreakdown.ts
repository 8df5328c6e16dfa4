import type { ClusterRuleSet, ScaffoldTier } from '../rules/ruleSet';
import type { TierEvidence } from './clusterInputs';

export interface TierBreakdownRow {
  skillId: string;
  taskType: string;
  Level_1: number;
  Level_2: number;
  Level_3: number;
}

/**
 * The Scaffold Distribution Preview's breakdown: per skill × task type, how many pieces of evidence sit at
 * each tier (a measure's level through `tierOfMeasureLevel`, a read's band through `tierOfToken`).
 * Ordered by skill, then task type.
 */
export function tierBreakdownOf(rules: ClusterRuleSet, evidence: readonly TierEvidence[]): TierBreakdownRow[] {
  const rows = new Map<string, TierBreakdownRow>();
  for (const e of evidence) {
    const tier: ScaffoldTier | null =
      e.measureLevel !== null
        ? rules.tierOfMeasureLevel[String(e.measureLevel) as '1' | '2' | '3' | '4']
        : e.band !== null
          ? rules.tierOfToken[e.band]
          : null;
    if (!tier) continue;
    const key = `${e.skillId}|${e.taskType}`;
    const row = rows.get(key) ?? { skillId: e.skillId, taskType: e.taskType, Level_1: 0, Level_2: 0, Level_3: 0 };
    row[tier] += 1;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => a.skillId.localeCompare(b.skillId) || a.taskType.localeCompare(b.taskType));
}
