import { type AssessmentEvent, ATTEMPT_VOIDED, hasVoidedAttempt, studentOfAttempt } from '@qiraa/assessment';
import type { OfType } from '@qiraa/eventstore';
import { recordMasteryEvents, reverseMasteryEvents } from '@qiraa/gamification';
import { defineReaction } from '@qiraa/projections';
import { CREDITING_DECISION_TYPES, masteryInputOf } from '../commands/masteryInputs';
import type { DecisionEvent } from '../events';
import { CURRENT_RULE_SET, RULE_SETS, type RuleSet } from '../rules/ruleSet';
import { voidReversalsFor } from './voidReversalsFor';

/** The rule set a decision pinned (its oral-cell sub-skills name the credit's skill); the current one if none. */
const rulesOf = (data: { ruleSetVersion?: string }): RuleSet =>
  (data.ruleSetVersion && RULE_SETS.get(data.ruleSetVersion)) || CURRENT_RULE_SET;

/**
 * Decisions → gamification (MER-01..05 and the voids' reversals), as a reaction: each crediting decision event
 * records its mastery event in gamification's own transaction (engine event id = the decision id, causation =
 * the decision event), in log order, so a student's credits fold in the order their decisions were taken. A
 * void (`AttemptVoided`), and any later decision of a child who has a void, settles what the voids take back
 * (`reverseMasteryEvents`, caused by the void): the reaction reaches a void only after every decision before it
 * was credited, and a decision that raced past the void is caught when it is credited. Idempotent throughout
 * (engine ids, reversal ids), so a re-delivery or a `qiraa reactions retry` changes nothing twice; a failure is
 * retried, then parked, never blocking the other children. See docs/architecture.md, "Which effects are
 * reactions".
 */
export const decisionRewardsReaction = defineReaction<
  OfType<DecisionEvent, (typeof CREDITING_DECISION_TYPES)[number]> | OfType<AssessmentEvent, typeof ATTEMPT_VOIDED>
>({
  name: 'decisions_rewards_reaction',
  handles: [...CREDITING_DECISION_TYPES, ATTEMPT_VOIDED],
  async handle(deps, event) {
    let studentId: number | null;
    if (event.type === ATTEMPT_VOIDED) {
      studentId = await studentOfAttempt(deps.sql, event.data.attemptId);
      if (studentId === null) return;
    } else {
      const data = event.data;
      studentId = data.studentId;
      const input = masteryInputOf(event, rulesOf(data));
      if (input) await recordMasteryEvents(deps, [input]);
    }
    if (!(await hasVoidedAttempt(deps.sql, studentId))) return;
    const reversals = await voidReversalsFor(deps, studentId, CURRENT_RULE_SET);
    if (reversals.length > 0) await reverseMasteryEvents(deps, reversals);
  },
});
