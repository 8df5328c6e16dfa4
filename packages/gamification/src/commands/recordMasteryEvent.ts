import { CURRENT_RULE_SET, type RuleSet } from '../rules';
import {
  type GamificationDeps,
  type MasteryEventInput,
  type RecordOptions,
  type RecordResult,
  recordMasteryEvents,
} from './recordMasteryEvents';

export {
  type GamificationDeps,
  MAX_MASTERY_BATCH,
  type MasteryEventInput,
  masteryEventIdFor,
  type RecordOptions,
  type RecordResult,
  recordMasteryEvents,
} from './recordMasteryEvents';

/**
 * One mastery event: the event, what it earns (XP, a badge, a tier, a streak milestone) decided by the
 * current rule set, appended to the student's streams and projected inline, in one transaction. A batch
 * of one for `recordMasteryEvents`, so both take the same few round trips.
 */
export async function recordMasteryEvent(
  deps: GamificationDeps,
  input: MasteryEventInput,
  rules: RuleSet = CURRENT_RULE_SET,
  options: Omit<RecordOptions, 'rules'> = {},
): Promise<RecordResult> {
  const [result] = await recordMasteryEvents(deps, [input], { ...options, rules });
  return result!;
}
