import type { RuleSet } from './ruleSet';
import { ruleSetV1 } from './ruleSetV1';
import { ruleSetV2 } from './ruleSetV2';

export { avatarTierFor, type BadgeFacts, type BadgeRule, type RuleSet } from './ruleSet';

const RULE_SETS: ReadonlyMap<number, RuleSet> = new Map([
  [ruleSetV1.version, ruleSetV1],
  [ruleSetV2.version, ruleSetV2],
]);

/** The rule set new decisions use. Older versions stay so replay can re-decide with what was pinned. */
export const CURRENT_RULE_SET: RuleSet = ruleSetV2;

export { ruleSetV1, ruleSetV2 };

export function ruleSetVersion(version: number): RuleSet {
  const found = RULE_SETS.get(version);
  if (!found) throw new Error(`unknown gamification rule set version ${version}`);
  return found;
}

export const badgeRule = (code: string) => CURRENT_RULE_SET.badges.find((b) => b.code === code);
