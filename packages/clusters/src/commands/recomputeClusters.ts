import type { AnySql, Sql, UnitOfWork } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { deterministicEventId, type EventStore } from '@qiraa/eventstore';
import { conflict, evaluateEngineRules } from '@qiraa/http-kit';
import { applyInline } from '@qiraa/projections';
import { type ClusterComputation, computeClusters } from '../engine/computeClusters';
import { computationDigest } from '../engine/digest';
import { CLUSTER_GENERATION_COMPUTED, type ClusterGenerationComputed, streams } from '../events';
import type { ClusterInputsPort } from '../inputs/port';
import { generationsProjection } from '../projections/generationsProjection';
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

/**
 * Recomputes a class's clusters inside `uow` with the current rule set. Recomputes of one class are
 * serialised by a transaction advisory lock; when the answer (its digest) equals the class's newest unexpired
 * generation nothing is written and that generation is answered, else a new generation is appended to
 * `clustergen-<classId>` and projected in the same transaction.
 */
export async function recomputeInTransaction(
  deps: ClusterDeps,
  uow: UnitOfWork,
  cls: ClusterClass,
  rules: ClusterRuleSet = CURRENT_CLUSTER_RULE_SET,
): Promise<Generation> {
  const streamId = streams.generations(cls.classId);
  await uow.sql`select pg_advisory_xact_lock(hashtextextended(${streamId}, 0))`;
  const [inputs, minSize, latestRows] = await Promise.all([
    deps.inputs.studentsOfClass(uow.sql, cls.classId),
    minClusterSizeOf(uow.sql, cls.schoolId, rules),
    uow.sql<{ generation_id: string; digest: string; created_at: Date; expires_at: Date; stream_version: string }[]>`
      select generation_id, digest, created_at, expires_at, stream_version::text from clu_generations
      where class_id = ${cls.classId} order by stream_version desc limit 1`,
  ]);
  // The cluster rules evaluated at request time (POST generate): a throw is 503 ENGINE_UNAVAILABLE, never a 500.
  const computation = evaluateEngineRules('decision', `cluster rule set ${rules.version}`, () =>
    computeClusters(rules, inputs, minSize),
  );
  const digest = computationDigest(computation);
  const now = deps.now?.() ?? new Date();
  const latest = latestRows[0];
  if (latest && latest.digest === digest && latest.expires_at > now) {
    return {
      generationId: latest.generation_id,
      classId: cls.classId,
      createdAt: latest.created_at.toISOString(),
      expiresAt: latest.expires_at.toISOString(),
      created: false,
      computation,
    };
  }
  const version = latest ? BigInt(latest.stream_version) : 0n;
  const generationId = deterministicEventId('cluster-generation', cls.classId, version, digest);
  const data: ClusterGenerationComputed = {
    ...computation,
    classId: cls.classId,
    organizationId: cls.organizationId,
    digest,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + rules.generationTtlDays * DAY_MS).toISOString(),
  };
  const result = await deps.store.append(
    streamId,
    [{ eventId: generationId, type: CLUSTER_GENERATION_COMPUTED, data }],
    { expected: version === 0n ? 'no_stream' : version, uow },
  );
  if (result.kind === 'conflict') throw conflict('generation_raced', 'another recompute of this class won; retry');
  if (result.kind === 'appended') await applyInline(uow, generationsProjection, result.events);
  return {
    generationId,
    classId: cls.classId,
    createdAt: data.createdAt,
    expiresAt: data.expiresAt,
    created: true,
    computation,
  };
}

/** POST /api/cluster/recompute/{classId}: one transaction around `recomputeInTransaction`. */
export function recomputeClusters(deps: ClusterDeps, cls: ClusterClass): Promise<Generation> {
  return inTransaction(deps.sql, (uow) => recomputeInTransaction(deps, uow, cls));
}
