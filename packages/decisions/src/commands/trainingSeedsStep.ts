import type { StudentEvidence } from '@qiraa/assessment';
import { loadCatalog } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import { deterministicEventId, type EventStore, type NewEvent, readStreamThrough } from '@qiraa/eventstore';
import type { SkillStatusDecision } from '../engine/skillStatusTypes';
import { decideTrainingSeeds, type SeedDecision, seedKeyOf, type TrainingSeedKey } from '../engine/trainingSeeds';
import {
  decisionEvents,
  streams,
  TRAINING_LEVEL_SEED_RETRACTED,
  TRAINING_LEVEL_SEEDED,
  type TrainingLevelSeeded,
  type TrainingLevelSeedRetracted,
} from '../events';
import type { RuleSet } from '../rules/ruleSet';

export type TrainingSeedEvent = TrainingLevelSeeded | TrainingLevelSeedRetracted;

/** What stands for a key in the stream: its latest seed, or the retraction after it. */
type Standing =
  | { kind: 'seed'; eventId: string; data: TrainingLevelSeeded }
  | { kind: 'retraction'; eventId: string; data: TrainingLevelSeedRetracted };

export interface TrainingSeedStepInput {
  /** The recompute's connection (its transaction on the PostgreSQL store). */
  sql: AnySql;
  store: EventStore;
  /** The pool (the content catalog is cached per pool). */
  pool: AnySql;
  studentId: number;
  organizationId: string | null;
  evidence: StudentEvidence;
  /** Every current skill-status decision of the student with its id (stored or about to be appended). */
  decided: readonly { decision: SkillStatusDecision; decisionId: string }[];
  rules: RuleSet;
  decidedAt: string;
}

/**
 * A seed's id: the key, rule-set version, measure, level and evidence, chained to the key's previous event
 * (seed or retraction) so a seed that comes back after a retraction or a newer seed is a new event, never the
 * id of one the stream already holds.
 */
export const seedIdOf = (studentId: number, seed: SeedDecision, version: string, previousEventId: string | null) =>
  deterministicEventId(
    'training-seed',
    studentId,
    seed.academicYear,
    seed.window,
    seed.skillId,
    version,
    seed.measureCode,
    seed.level,
    seed.evidenceEventIds.join(','),
    previousEventId ?? '',
  );

/** A retraction's id: a seed is retracted at most once (a seed that returns is a new seed with a new id). */
export const retractionIdOf = (studentId: number, seedId: string) =>
  deterministicEventId('training-seed-retraction', studentId, seedId);

/** The latest seed event of each key of `decision-<studentId>`, read through the recompute's connection. */
async function standingSeedsOf(sql: AnySql, store: EventStore, studentId: number): Promise<Map<string, Standing>> {
  const streamId = streams.decision(studentId);
  const types = [TRAINING_LEVEL_SEEDED, TRAINING_LEVEL_SEED_RETRACTED];
  const rows = decisionEvents(await readStreamThrough(store, sql, streamId, { types }));
  const standing = new Map<string, Standing>();
  for (const r of rows) {
    if (r.type === TRAINING_LEVEL_SEEDED) {
      standing.set(seedKeyOf(r.data), { kind: 'seed', eventId: r.eventId, data: r.data });
    } else if (r.type === TRAINING_LEVEL_SEED_RETRACTED) {
      standing.set(seedKeyOf(r.data), { kind: 'retraction', eventId: r.eventId, data: r.data });
    }
  }
  return standing;
}

const sameSeed = (stored: TrainingLevelSeeded, seed: SeedDecision, version: string) =>
  stored.ruleSetVersion === version &&
  stored.level === seed.level &&
  stored.measureCode === seed.measureCode &&
  stored.sessionId === seed.sessionId &&
  stored.evidenceEventIds.join(',') === seed.evidenceEventIds.join(',');

/**
 * The training-level seed step of a recompute (rules TLS-01, TLS-08, TLS-09 of the rule set's `trainingSeeds`):
 * the seed events to append beside the skill-status decisions, in the same append. A key whose standing seed
 * is unchanged appends nothing; a changed seed appends a newer one (superseding); a key whose seed no longer
 * holds (held, or its measure gone with a void) appends a retraction. A key that never had a seed and cannot
 * have one appends nothing: the skill-status rows already say why.
 */
export async function trainingSeedEventsOf(input: TrainingSeedStepInput): Promise<NewEvent<TrainingSeedEvent>[]> {
  const { studentId, organizationId, rules, decidedAt } = input;
  const [catalog, standing] = await Promise.all([
    loadCatalog(input.pool),
    standingSeedsOf(input.sql, input.store, studentId),
  ]);
  const skillOfMeasure = new Map(
    catalog.measures.filter((m) => m.mode === 'digital').map((m) => [m.measureCode, m.skillId]),
  );
  const outcomes = decideTrainingSeeds(input.evidence, input.decided, rules, skillOfMeasure);
  const events: NewEvent<TrainingSeedEvent>[] = [];
  const retract = (
    seed: { eventId: string; data: TrainingLevelSeeded },
    hold: { ruleId: string; reason: TrainingLevelSeedRetracted['reason'] },
    evidenceEventIds: string[],
    statusDecisionIds: string[],
  ) => {
    const retractionId = retractionIdOf(studentId, seed.eventId);
    const { academicYear, window, skillId, measureCode } = seed.data;
    events.push({
      eventId: retractionId,
      type: TRAINING_LEVEL_SEED_RETRACTED,
      data: {
        retractionId,
        retractedSeedId: seed.eventId,
        studentId,
        organizationId,
        academicYear,
        window,
        skillId,
        measureCode,
        ruleId: hold.ruleId,
        reason: hold.reason,
        ruleSetVersion: rules.version,
        evidenceEventIds,
        statusDecisionIds,
        decidedAt,
      },
      metadata: { organizationId },
    });
  };
  const decidedKeys = new Set<string>();
  for (const o of outcomes) {
    const key = seedKeyOf(o);
    decidedKeys.add(key);
    const before = standing.get(key);
    if (o.kind === 'hold') {
      if (before?.kind === 'seed') retract(before, o, o.evidenceEventIds, o.statusDecisionIds);
      continue;
    }
    if (before?.kind === 'seed' && sameSeed(before.data, o, rules.version)) continue;
    const seedId = seedIdOf(studentId, o, rules.version, before?.eventId ?? null);
    const { academicYear, window, skillId, measureCode, level, measureLevel, sessionId, cutVersion, provisional } = o;
    events.push({
      eventId: seedId,
      type: TRAINING_LEVEL_SEEDED,
      data: {
        seedId,
        studentId,
        organizationId,
        academicYear,
        window,
        skillId,
        measureCode,
        level,
        source: 'screen',
        measureLevel,
        sessionId,
        cutVersion,
        provisional,
        ruleId: o.ruleId,
        ruleSetVersion: rules.version,
        evidenceEventIds: o.evidenceEventIds,
        statusDecisionIds: o.statusDecisionIds,
        supersedesSeedId: before?.kind === 'seed' ? before.eventId : null,
        decidedAt,
      },
      metadata: { organizationId },
    });
  }
  // A standing seed whose window no live sitting measures any more (every one voided): nothing to start from.
  for (const [key, before] of standing) {
    if (decidedKeys.has(key) || before.kind !== 'seed') continue;
    const voids = input.evidence.voided.filter((v) => v.kind === 'digital_sitting' && sameWindow(v, before.data));
    retract(
      before,
      { ruleId: rules.trainingSeeds.noCompleteMeasure.id, reason: 'no_complete_measure' },
      voids.map((v) => v.voidEventId).sort(),
      [],
    );
  }
  return events;
}

const sameWindow = (a: { academicYear: string; window: string }, b: TrainingSeedKey) =>
  a.academicYear === b.academicYear && a.window === b.window;
