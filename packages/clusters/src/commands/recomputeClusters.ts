import { type Decider, handleCommand } from '@qiraa/command-kit';
import type { AnySql, Sql, UnitOfWork } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { deterministicEventId, type EventStore, eventsAs, type NewEvent } from '@qiraa/eventstore';
import { conflict, evaluateEngineRules } from '@qiraa/http-kit';
import { clustersCommands } from '../commandContext';
import type { ClusterInputsPort } from '../engine/clusterInputs';
import { type ClusterComputation, computeClusters } from '../engine/computeClusters';
import { computationDigest } from '../engine/digest';
import { CLUSTER_GENERATION_COMPUTED, type ClusterEvent, type ClusterGenerationComputed, streams } from '../events';
import { type ClusterRuleSet, CURRENT_CLUSTER_RULE_SET } from '../rules/ruleSet';
import type { ClusterClass } from './classOf';

export interface ClusterDeps {
  readonly sql: Sql;
  readonly store: EventStore;
  readonly inputs: ClusterInputsPort;
  readonly now?: () => Date;
}

export interface Generation {
  generationId: string;
  classId: string;
  createdAt: string;
  expiresAt: string;
  /** false when the class's current generation already had these inputs' answer (nothing written). */
  created: boolean;
  computation: ClusterComputation;
}

/** The school's minimum cluster size (clu_school_settings, 3..5), else the rule set's default (2). */
export async function minClusterSizeOf(sql: AnySql, schoolId: string, rules: ClusterRuleSet): Promise<number> {
  const [row] = await sql<{ min_cluster_size: number }[]>`
    select min_cluster_size from clu_school_settings where school_id = ${schoolId}`;
  return row?.min_cluster_size ?? rules.minClusterSize.default;
}

const DAY_MS = 86_400_000;

/** The class's newest generation as `clu_generations` holds it, at the stream version it reflects. */
export interface LatestGeneration {
  readonly generationId: string;
  readonly digest: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly streamVersion: bigint;
}

/** What a recompute decides on: the fresh computation (and its digest) beside the newest generation. */
export interface RecomputeState {
  readonly computation: ClusterComputation | null;
  readonly digest: string;
  readonly latest: LatestGeneration | null;
}

export interface Recompute {
  readonly cls: ClusterClass;
  readonly rules: ClusterRuleSet;
  readonly now: Date;
}

/**
 * A recompute's rule: nothing to write when the fresh answer (its digest) equals the class's newest unexpired
 * generation; else a new generation, its id a function of the class, the version it follows and the digest.
 * `evolve` keeps the newest generation, so the state after an append names the one just written.
 */
export const recomputeDecider: Decider<Recompute, NewEvent<ClusterGenerationComputed>, RecomputeState> = {
  initialState: () => ({ computation: null, digest: '', latest: null }),
  evolve(state, recorded) {
    const [event] = eventsAs<ClusterEvent>([recorded]);
    if (event?.type !== CLUSTER_GENERATION_COMPUTED) return state;
    const data = event.data;
    const latest = {
      generationId: event.eventId,
      digest: data.digest,
      createdAt: new Date(data.createdAt),
      expiresAt: new Date(data.expiresAt),
      streamVersion: event.streamVersion,
    };
    return { ...state, latest };
  },
  decide({ cls, rules, now }, { computation, digest, latest }) {
    if (!computation) throw new Error(`clusters of class ${cls.classId}: decided without computing`);
    if (latest && latest.digest === digest && latest.expiresAt > now) return [];
    const version = latest?.streamVersion ?? 0n;
    const data: ClusterGenerationComputed = {
      ...computation,
      classId: cls.classId,
      organizationId: cls.organizationId,
      digest,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + rules.generationTtlDays * DAY_MS).toISOString(),
    };
    const eventId = deterministicEventId('cluster-generation', cls.classId, version, digest);
    return [{ eventId, type: CLUSTER_GENERATION_COMPUTED, data, metadata: { organizationId: cls.organizationId } }];
  },
};

/**
 * Recomputes a class's clusters inside `uow` with the current rule set. Recomputes of one class are
 * serialised by a transaction advisory lock, taken by the loader before it reads the inputs and the newest
 * generation; when the answer (its digest) equals the class's newest unexpired generation nothing is written
 * and that generation is answered, else a new generation is appended to `clustergen-<classId>` and projected
 * in the same transaction (`handleCommand`).
 */
export async function recomputeInTransaction(
  deps: ClusterDeps,
  uow: UnitOfWork,
  cls: ClusterClass,
  rules: ClusterRuleSet = CURRENT_CLUSTER_RULE_SET,
): Promise<Generation> {
  const streamId = streams.generations(cls.classId);
  const now = deps.now?.() ?? new Date();
  const { kind, state } = await handleCommand(deps, {
    context: clustersCommands,
    streamId,
    decider: recomputeDecider,
    command: { cls, rules, now },
    uow,
    load: {
      name: 'the class’s lock, its inputs and its newest clu_generations row',
      inTransaction: true,
      async load(tx) {
        await tx.sql`select pg_advisory_xact_lock(hashtextextended(${streamId}, 0))`;
        const [inputs, minSize, latestRows] = await Promise.all([
          deps.inputs.studentsOfClass(tx.sql, cls.classId),
          minClusterSizeOf(tx.sql, cls.schoolId, rules),
          tx.sql<
            { generation_id: string; digest: string; created_at: Date; expires_at: Date; stream_version: string }[]
          >`
            select generation_id, digest, created_at, expires_at, stream_version::text from clu_generations
            where class_id = ${cls.classId} order by stream_version desc limit 1`,
        ]);
        // The cluster rules evaluated at request time (POST generate): a throw is 503 ENGINE_UNAVAILABLE, never a 500.
        const computation = evaluateEngineRules('decision', `cluster rule set ${rules.version}`, () =>
          computeClusters(rules, inputs, minSize),
        );
        const row = latestRows[0];
        const latest = row
          ? {
              generationId: row.generation_id,
              digest: row.digest,
              createdAt: row.created_at,
              expiresAt: row.expires_at,
              streamVersion: BigInt(row.stream_version),
            }
          : null;
        const version = latest ? latest.streamVersion : 'no_stream';
        return { state: { computation, digest: computationDigest(computation), latest }, version };
      },
    },
    // Under the class's lock a conflict means a writer that does not take it: answer it, do not decide again.
    attempts: 1,
    onConflict: () => conflict('generation_raced', 'another recompute of this class won; retry'),
  });
  const latest = state.latest;
  if (!latest) throw conflict('generation_raced', 'another recompute of this class won; retry');
  return {
    generationId: latest.generationId,
    classId: cls.classId,
    createdAt: latest.createdAt.toISOString(),
    expiresAt: latest.expiresAt.toISOString(),
    created: kind === 'appended',
    computation: state.computation!,
  };
}

/** POST /api/cluster/recompute/{classId}: one transaction around `recomputeInTransaction`. */
export function recomputeClusters(deps: ClusterDeps, cls: ClusterClass): Promise<Generation> {
  return inTransaction(deps.sql, (uow) => recomputeInTransaction(deps, uow, cls));
}
