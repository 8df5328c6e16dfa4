import type { RuleSet } from './ruleSet';
import { ruleSetV1 } from './ruleSetV1';

/**
 * v2 (issue 24): a badge's bonus is paid in full even when the session cap is used up, so every badge
 * carries XP and its rescind's `reversalDelta` is negative, as the spec's Rescind response says. Everything
 * else is v1's. The cap still bounds mastery credits and counts the bonuses already paid in the session.
 */
export const ruleSetV2: RuleSet = { ...ruleSetV1, version: 2, badgeBonusCapped: false };
