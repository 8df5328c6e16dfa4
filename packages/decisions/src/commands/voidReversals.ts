import type { StudentEvidence } from '@qiraa/assessment';
import type { ReversalInput } from '@qiraa/gamification';
import { rankOf, type StatusToken } from '../rules/ruleSet';
import type { CreditedDecision } from './decisionStream';

/**
 * The mastery events a void takes back (docs/decisions.md, "Voids reach the rewards"): a credited decision is
 * reversed when a voided attempt was part of what it measured and the step it credited no longer stands:
 * - a status step (MER-01, MER-02) whose evidence holds an event of a voided attempt, when the key's current
 *   status is now lower than the status it credited (or a safe stop);
 * - a band rise (MER-03) whose read was voided, or whose beaten read was voided and the read no longer rises
 *   over any valid read.
 * The cause is the void's `AttemptVoided` event. Pure; the dedupe (a mastery event reversed once) is
 * gamification's.
 */
export function voidReversalsOf(
  studentId: number,
  evidence: Pick<StudentEvidence, 'voided'>,
  credited: readonly CreditedDecision[],
  current: ReadonlyMap<string, StatusToken | null>,
  risingReads: ReadonlySet<string>,
): ReversalInput[] {
  if (evidence.voided.length === 0) return [];
  const voidOfEvent = new Map<string, string>();
  const voidOfAttempt = new Map<string, string>();
  for (const v of evidence.voided) {
    voidOfAttempt.set(v.attemptId, v.voidEventId);
    for (const id of v.eventIds ?? []) voidOfEvent.set(id, v.voidEventId);
  }
  const reversals: ReversalInput[] = [];
  const reverse = (engineEventId: string, causeEventId: string) =>
    reversals.push({ engineEventId, studentId, reason: 'evidence_voided', causeEventId });
  for (const c of credited) {
    if (c.kind === 'status') {
      const cause = c.evidenceEventIds.map((id) => voidOfEvent.get(id)).find((v) => v !== undefined);
      if (!cause) continue;
      const now = current.get(c.key) ?? null;
      if (now === null || rankOf(now) < rankOf(c.to)) reverse(c.decisionId, cause);
    } else {
      const readVoid = voidOfAttempt.get(c.readAttemptId);
      if (readVoid) reverse(c.decisionId, readVoid);
      else {
        const beatenVoid = voidOfAttempt.get(c.previousAttemptId);
        if (beatenVoid && !risingReads.has(c.readAttemptId)) reverse(c.decisionId, beatenVoid);
      }
    }
  }
  return reversals;
}
