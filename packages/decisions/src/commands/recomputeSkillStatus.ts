import { evidenceOf } from '@qiraa/assessment';
import { inTransaction, type Sql, type UnitOfWork } from '@qiraa/db';
import { deterministicEventId, type EventStore, type NewEvent } from '@qiraa/eventstore';
import { applyInline } from '@qiraa/projections';
import { decideSkillStatuses } from '../engine/decideSkillStatuses';
import type { SkillStatusDecision } from '../engine/skillStatusTypes';
import { SKILL_STATUS_DECIDED, type SkillStatusDecided, streams } from '../events';
import { skillStatusProjection } from '../projections/skillStatusProjection';
import { CURRENT_RULE_SET, type RuleSet } from '../rules/ruleSet';
import { decisionStreamOf, keyOf } from './decisionStream';

export interface RecomputeDeps {
  readonly sql: Sql;
  readonly store: EventStore;
}

export interface RecomputeOptions {
  /** Join this unit of work (the reactor's batch transaction) instead of opening one. */
  uow?: UnitOfWork;
  rules?: RuleSet;
  now?: Date;
}

/** Stream-version conflicts a recompute retries (another recompute of the same student won the race). */
const ATTEMPTS = 5;

/** A decision's id: the same key, rule-set version, evidence and voids always give the same id. */
export const decisionIdOf = (studentId: number, d: SkillStatusDecision) =>
  deterministicEventId(
    'skill-status',
    studentId,
    d.academicYear,
    d.window,
    d.subSkillId,
    d.ruleSetVersion,
    d.evidenceEventIds.join(','),
    d.voidEventIds.join(','),
  );

/**
 * Recomputes a student's skill statuses from their evidence and appends the decisions that changed to
 * `decision-<studentId>` (expected version: the one read), with `dec_skill_status` applied in the same
 * transaction. Unchanged evidence gives the same ids, so nothing is appended; two recomputes racing on one
 * student serialise on the stream version (the loser reads again and finds nothing left to append).
 */
export async function recomputeSkillStatus(
  deps: RecomputeDeps,
  studentId: number,
  options: RecomputeOptions = {},
): Promise<{ appended: number }> {
  const rules = options.rules ?? CURRENT_RULE_SET;
  const attempt = async (uow: UnitOfWork) => {
    const [evidence, stream, [user]] = await Promise.all([
      evidenceOf(uow.sql, studentId, { store: deps.store, pool: deps.sql }),
      decisionStreamOf(uow.sql, deps.store, studentId),
      uow.sql<{ organization_id: string | null }[]>`select organization_id from users where id = ${studentId}`,
    ]);
    const decidedAt = (options.now ?? new Date()).toISOString();
    const events: NewEvent<SkillStatusDecided>[] = [];
    for (const decision of decideSkillStatuses(evidence, rules)) {
      const decisionId = decisionIdOf(studentId, decision);
      // Already stored (the latest of its key, or, never in practice, an earlier state): nothing to say.
      if (stream.ids.has(decisionId)) continue;
      events.push({
        eventId: decisionId,
        type: SKILL_STATUS_DECIDED,
        data: {
          ...decision,
          decisionId,
          studentId,
          organizationId: user?.organization_id ?? null,
          supersedesDecisionId: stream.latest.get(keyOf(decision)) ?? null,
          decidedAt,
        },
        metadata: { organizationId: user?.organization_id ?? null },
      });
    }
    if (events.length === 0) return { kind: 'done' as const, appended: 0 };
    const result = await deps.store.append(streams.decision(studentId), events, { uow, expected: stream.version });
    if (result.kind === 'conflict') return { kind: 'conflict' as const, appended: 0 };
    if (result.kind === 'appended') await applyInline(uow, skillStatusProjection, result.events);
    return { kind: 'done' as const, appended: result.kind === 'appended' ? result.events.length : 0 };
  };
  for (let i = 0; i < ATTEMPTS; i++) {
    const outcome = options.uow ? await attempt(options.uow) : await inTransaction(deps.sql, attempt);
    if (outcome.kind === 'done') return { appended: outcome.appended };
  }
  throw new Error(`skill status of student ${studentId}: the decision stream kept moving (${ATTEMPTS} conflicts)`);
}
