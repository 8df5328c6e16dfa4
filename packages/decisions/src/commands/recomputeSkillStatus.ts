import type { StudentEvidence } from '@qiraa/assessment';
import { evidenceOf } from '@qiraa/assessment';
import { type Decider, handleCommand } from '@qiraa/command-kit';
import type { AnySql, Sql, UnitOfWork } from '@qiraa/db';
import { deterministicEventId, type EventStore, type NewEvent } from '@qiraa/eventstore';
import { evaluateEngineRules } from '@qiraa/http-kit';
import { userOrganization } from '@qiraa/identity';
import type { Clock } from '@qiraa/kernel';
import { decisionsCommands } from '../commandContext';
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
import type { MonitoringEvent } from '../events/monitoringEvents';
import type { ProfileEvent } from '../events/profileEvents';
import { CURRENT_RULE_SET, type RuleSet } from '../rules/ruleSet';
import { type DecisionStreamState, decisionStreamOf, keyOf } from './decisionStream';
import { monitoringEventsOf } from './monitoringStep';
import { profileEventsOf } from './profileStep';
import { type TrainingSeedEvent, trainingSeedEventsOf } from './trainingSeedsStep';

export interface RecomputeDeps {
  readonly sql: Sql;
  readonly store: EventStore;
  /** The runtime's clock: `decidedAt` (and the school day its credits count on) comes from it. */
  readonly clock?: Clock;
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
 * The mastery events the new decisions earn (MER-01..05) and what the voids take back are not written here:
 * the `decisions_rewards_reaction` records them in gamification from the appended events (docs/architecture.md,
 * "Which effects are reactions").
 */
/** What a recompute decides on, read in its unit of work: the evidence, the decision stream, the organization. */
export interface RecomputeState {
  readonly evidence: StudentEvidence;
  readonly stream: DecisionStreamState;
  readonly organizationId: string | null;
  /**
   * The unit of work's connection and the pool: the training-seed, monitoring and profile steps read further
   * inputs while they decide (their rules are pure and specified in their own unit specs).
   */
  readonly sql: AnySql;
  readonly pool: Sql;
}

export interface Recompute {
  readonly studentId: number;
  readonly rules: RuleSet;
  readonly decidedAt: string;
}

type DecisionEvent = NewEvent<
  SkillStatusDecided | BandProgressionDecided | TrainingSeedEvent | MonitoringEvent | ProfileEvent
>;

/**
 * The recompute's rules: every decision the evidence makes under the rule set that the stream does not hold
 * yet (by deterministic id), with the mastery credit each earns against the decisions before it, the band
 * progressions, then the training seeds, monitoring and profile steps. The state is read, not folded
 * (`decisionStreamOf` reads the stream in SQL), so `evolve` keeps it as it is.
 */
export const recomputeDecider = (store: EventStore): Decider<Recompute, DecisionEvent, RecomputeState | null> => ({
  initialState: () => null,
  evolve: (state) => state,
  async decide({ studentId, rules, decidedAt }, state) {
    if (!state) throw new Error(`skill status of student ${studentId}: decided without loading`);
    const { evidence, stream, organizationId } = state;
    const decisions = evaluateEngineRules('decision', `decision rule set ${rules.version}`, () =>
      decideSkillStatuses(evidence, rules),
    );
    const decided = decisions.map((decision) => ({
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
    const events: DecisionEvent[] = [];
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
    const bands = bandProgressionsOf(evidence.reads, rules);
    for (const band of bands) {
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
    const { sql, pool } = state;
    const seedInput = { sql, store, pool, studentId, organizationId, evidence, decided };
    events.push(...(await trainingSeedEventsOf({ ...seedInput, rules, decidedAt })));
    events.push(...(await monitoringEventsOf(sql, store, evidence, { studentId, organizationId, decidedAt, rules })));
    events.push(...(await profileEventsOf({ sql, pool, store, studentId, organizationId, decidedAt, rules, decided })));
    return events;
  },
});

/**
 * Recomputes a student's skill statuses from their evidence and appends the decisions that changed to
 * `decision-<studentId>` (expected version: the one read), with the decisions' read models applied in the same
 * transaction (`decisionsCommands`). Unchanged evidence gives the same ids, so nothing is appended; two
 * recomputes racing on one student serialise on the stream version (the loser reads again and finds nothing
 * left to append).
 * The mastery events the new decisions earn (MER-01..05) and what the voids take back are not written here:
 * the `decisions_rewards_reaction` records them in gamification from the appended events (docs/architecture.md,
 * "Which effects are reactions").
 */
export async function recomputeSkillStatus(
  deps: RecomputeDeps,
  studentId: number,
  options: RecomputeOptions = {},
): Promise<{ appended: number }> {
  const rules = options.rules ?? CURRENT_RULE_SET;
  // The one clock (docs/architecture.md, "One clock"); the wall clock only where a caller has none (a unit test).
  const decidedAt = (options.now ?? deps.clock?.now() ?? new Date()).toISOString();
  const result = await handleCommand(deps, {
    context: decisionsCommands,
    streamId: streams.decision(studentId),
    decider: recomputeDecider(deps.store),
    command: { studentId, rules, decidedAt },
    load: {
      name: 'evidence and the decision stream, read in the unit of work',
      inTransaction: true,
      async load(uow) {
        const [evidence, stream, organizationId] = await Promise.all([
          evidenceOf(uow.sql, studentId, { store: deps.store, pool: deps.sql }),
          decisionStreamOf(uow.sql, deps.store, studentId),
          userOrganization(uow.sql, studentId),
        ]);
        return { state: { evidence, stream, organizationId, sql: uow.sql, pool: deps.sql }, version: stream.version };
      },
    },
    ...(options.uow ? { uow: options.uow } : {}),
    attempts: ATTEMPTS,
    // Every id stored already: another recompute of the same evidence won; nothing is left to say.
    onDuplicate: 'done',
    onConflict: () =>
      new Error(`skill status of student ${studentId}: the decision stream kept moving (${ATTEMPTS} conflicts)`),
  });
  return { appended: result.events.length };
}
