import { evidenceOf } from '@qiraa/assessment';
import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import type { ReversalInput } from '@qiraa/gamification';
import { decisionStreamOf, keyOf } from '../commands/decisionStream';
import { voidReversalsOf } from '../commands/voidReversals';
import { decideSkillStatuses } from '../engine/decideSkillStatuses';
import { bandProgressionsOf } from '../engine/masteryRules';
import type { RuleSet } from '../rules/ruleSet';

/**
 * What the student's voids take back now (docs/decisions.md, "Voids reach the rewards"), read from the pool:
 * the evidence as it stands (voided attempts apart), the credited decisions of the stream, and the statuses
 * and band rises the valid evidence still gives. Pure over what it reads; the reversal's dedupe is
 * gamification's, so computing it again after every later decision costs a read and changes nothing.
 */
export async function voidReversalsFor(
  deps: { sql: Sql; store: EventStore },
  studentId: number,
  rules: RuleSet,
): Promise<ReversalInput[]> {
  const [evidence, stream] = await Promise.all([
    evidenceOf(deps.sql, studentId, { store: deps.store, pool: deps.sql }),
    decisionStreamOf(deps.sql, deps.store, studentId),
  ]);
  if (evidence.voided.length === 0) return [];
  const current = new Map(decideSkillStatuses(evidence, rules).map((d) => [keyOf(d), d.status]));
  const rising = new Set(bandProgressionsOf(evidence.reads, rules).map((b) => b.readAttemptId));
  return voidReversalsOf(studentId, evidence, stream.credited, current, rising);
}
