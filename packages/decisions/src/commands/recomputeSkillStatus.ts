import { evidenceOf } from '@qiraa/assessment';
import { inTransaction, type Sql, type UnitOfWork } from '@qiraa/db';
import { deterministicEventId, type EventStore, type NewEvent } from '@qiraa/eventstore';
import { recordMasteryEvents } from '@qiraa/gamification';
import { applyInline } from '@qiraa/projections';
import { decideSkillStatuses } from '../engine/decideSkillStatuses';
import { bandProgressionsOf, type MasteryCredit, statusMasteryOf, windowRank } from '../engine/masteryRules';
import type { SkillStatusDecision } from '../engine/skillStatusTypes';
import {
  BAND_PROGRESSION_DECIDED,
  type BandProgressionDecided,
  SKILL_STATUS_DECIDED,
  type SkillStatusDecided,
  streams,
} from '../events';
import type { MonitoringEvent } from '../monitoring/monitoringEvents';
import { afterMonitoringAppend, monitoringEventsOf } from '../monitoring/monitoringStep';
import type { ProfileEvent } from '../profiles/profileEvents';
import { afterProfileAppend, profileEventsOf } from '../profiles/profileStep';
import { skillStatusProjection } from '../projections/skillStatusProjection';
import { trainingSeedsProjection } from '../projections/trainingSeedsProjection';
import { CURRENT_RULE_SET, type RuleSet } from '../rules/ruleSet';
import { decisionStreamOf, keyOf } from './decisionStream';
import { masteryInputsOf } from './masteryInputs';
import { type TrainingSeedEvent, trainingSeedEventsOf } from './trainingSeedsStep';

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

/** A band decision's id: one per read, ever, whatever it was compared with (a read earns at most once). */
export const bandDecisionIdOf = (studentId: number, readAttemptId: string) =>
  deterministicEventId('band-progression', studentId, readAttemptId);

/**
 * Recomputes a student's skill statuses from their evidence and appends the decisions that changed to
 * `decision-<studentId>` (expected version: the one read), with `dec_skill_status` applied in the same
 * transaction. Unchanged evidence gives the same ids, so nothing is appended; two recomputes racing on one
 * student serialise on the stream version (the loser reads again and finds nothing left to append).
 * The mastery events the new decisions earn (rules MER-01..03) are recorded through gamification in the
 * same transaction, with the decision's id as the engine event id: a decision and its XP commit together.
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
    const organizationId = user?.organization_id ?? null;
    const decided = decideSkillStatuses(evidence, rules).map((decision) => ({
      decision,
      decisionId: decisionIdOf(studentId, decision),
    }));
    // Already stored (the latest of its key, or, never in practice, an earlier state): nothing to say.
    const fresh = decided.filter((d) => !stream.ids.has(d.decisionId));
    // The mastery rules read the decisions before each one; a BOY and a MOY decided together compare in time.
    const prior = [...stream.statuses];
    const credits = new Map<string, MasteryCredit | null>();
    for (const d of [...fresh].sort((a, b) => (windowRank(a.decision) < windowRank(b.decision) ? -1 : 1))) {
      credits.set(d.decisionId, statusMasteryOf(d.decision, prior, rules));
      prior.push(d.decision);
    }
    const events: NewEvent<
      SkillStatusDecided | BandProgressionDecided | TrainingSeedEvent | MonitoringEvent | ProfileEvent
    >[] = [];
    for (const { decision, decisionId } of fresh) {
      events.push({
        eventId: decisionId,
        type: SKILL_STATUS_DECIDED,
        data: {
          ...decision,
          decisionId,
          studentId,
          organizationId,
          supersedesDecisionId: stream.latest.get(keyOf(decision)) ?? null,
          decidedAt,
          mastery: credits.get(decisionId) ?? null,
        },
        metadata: { organizationId },
      });
    }
    for (const band of bandProgressionsOf(evidence.reads, rules)) {
      const bandDecisionId = bandDecisionIdOf(studentId, band.readAttemptId);
      if (stream.ids.has(bandDecisionId)) continue;
      const { ruleId, cell, academicYear, window, readAttemptId, previousAttemptId, from, to, at } = band;
      events.push({
        eventId: bandDecisionId,
        type: BAND_PROGRESSION_DECIDED,
        data: {
          bandDecisionId,
          studentId,
          organizationId,
          ruleId,
          sourceKind: 'band_progression',
          ruleSetVersion: rules.version,
          cell,
          academicYear,
          window,
          readAttemptId,
          previousAttemptId,
          from,
          to,
          readAt: at,
          decidedAt,
        },
        metadata: { organizationId },
      });
    }
    const seedInput = { sql: uow.sql, store: deps.store, pool: deps.sql, studentId, organizationId, evidence, decided };
    events.push(...(await trainingSeedEventsOf({ ...seedInput, rules, decidedAt })));
    events.push(
      ...(await monitoringEventsOf(uow.sql, deps.store, evidence, { studentId, organizationId, decidedAt, rules })),
    );
    events.push(
      ...(await profileEventsOf({
        sql: uow.sql,
        pool: deps.sql,
        store: deps.store,
        studentId,
        organizationId,
        decidedAt,
        rules,
        decided,
      })),
    );
    if (events.length === 0) return { kind: 'done' as const, appended: 0 };
    const result = await deps.store.append(streams.decision(studentId), events, { uow, expected: stream.version });
    if (result.kind === 'conflict') return { kind: 'conflict' as const, appended: 0 };
    if (result.kind === 'appended') {
      await applyInline(uow, skillStatusProjection, result.events);
      await applyInline(uow, trainingSeedsProjection, result.events);
      const mastery = masteryInputsOf(studentId, result.events, rules);
      mastery.push(...(await afterMonitoringAppend(uow, result.events, rules)));
      mastery.push(...(await afterProfileAppend(uow, result.events)));
      if (mastery.length > 0) await recordMasteryEvents(deps, mastery, { uow });
    }
    return { kind: 'done' as const, appended: result.kind === 'appended' ? result.events.length : 0 };
  };
  for (let i = 0; i < ATTEMPTS; i++) {
    const outcome = options.uow ? await attempt(options.uow) : await inTransaction(deps.sql, attempt);
    if (outcome.kind === 'done') return { appended: outcome.appended };
  }
  throw new Error(`skill status of student ${studentId}: the decision stream kept moving (${ATTEMPTS} conflicts)`);
}
