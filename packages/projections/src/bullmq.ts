import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { needsAnotherLook } from './catchUp';
import { catchUpSettled } from './catchUpSettled';
import { lookAgainLater } from './lookAgainLater';
import type { Projection } from './projection';
import { type Projector, projectionsFor } from './projector';
import type { RunnerDeps } from './runProjectionBatch';

export const PROJECTION_QUEUE = 'qiraa-projections';
const RETRY_MS = 100;
const MAX_EXTRA_LOOKS = 50;

/** One waiting wake-up per projection, plus one queued behind an active run (bullmq ≥ 5.72). */
const wakeOptions = (projection: string) => ({
  deduplication: { id: projection, keepLastIfActive: true },
  removeOnComplete: true,
  removeOnFail: 100,
});
const SWEEP_SCHEDULER = 'projection-sweep';

export interface BullmqOptions {
  redisUrl: string;
  /** Key prefix, so test runs and deployments sharing one Redis stay apart. */
  prefix?: string;
  sweepIntervalMs?: number;
  /** Redis connection trouble; the producer keeps reconnecting and the sweep catches up afterwards. */
  onError?: (error: Error) => void;
}

/**
 * API side: a wake-up is a BullMQ job that carries only the projection's name. Deduplication keeps at most
 * one waiting job per projection plus one queued behind an active one (keepLastIfActive), so a burst of
 * appends costs one run. The job is only a signal: the event log and the checkpoint are the truth.
 */
export function bullmqProjector(
  deps: RunnerDeps,
  projections: readonly Projection[],
  options: BullmqOptions,
): Projector {
  // Producers fail fast instead of queueing commands while Redis is away; the sweep catches up later.
  const connection = new Redis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  const report = (error: Error) => options.onError?.(error);
  connection.on('error', report);
  const queue = new Queue(PROJECTION_QUEUE, { connection, prefix: options.prefix });
  queue.on('error', report);
  return {
    mode: 'bullmq',
    projections,
    wake(events) {
      for (const projection of projectionsFor(projections, events)) {
        queue.add('project', { projection: projection.name }, wakeOptions(projection.name)).catch(() => {});
      }
    },
    catchUp: (name) => catchUpSettled(deps, projections, name),
    async start() {
      await queue.waitUntilReady();
      await queue.upsertJobScheduler(
        SWEEP_SCHEDULER,
        { every: options.sweepIntervalMs ?? 5000 },
        { name: 'sweep', opts: { removeOnComplete: true, removeOnFail: 100 } },
      );
    },
    async stop() {
      await queue.close();
      connection.disconnect();
    },
  };
}

export interface ProjectionWorker {
  readonly worker: Worker<ProjectionJobData>;
  close(): Promise<void>;
}

/** A wake-up's data: the projection to run (none on the sweep). */
export interface ProjectionJobData {
  projection?: string;
}

/** Worker side (apps/worker): runs the named projection, or all of them for the periodic sweep. */
export function startProjectionWorker(
  deps: RunnerDeps,
  projections: readonly Projection[],
  options: BullmqOptions & {
    concurrency?: number;
    /** How long a job keeps looking at events held back by an older open transaction (default 5 s). */
    settleTimeoutMs?: number;
  },
): ProjectionWorker {
  // Blocking commands must wait for Redis however long it takes (bullmq#1744).
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', (error) => options.onError?.(error));
  const again = new Queue(PROJECTION_QUEUE, { connection, prefix: options.prefix });
  again.on('error', (error) => options.onError?.(error));
  const worker = new Worker<ProjectionJobData>(
    PROJECTION_QUEUE,
    async (job) => {
      const name = job.name === 'sweep' ? undefined : job.data.projection;
      const results = await catchUpSettled(deps, projections, name, {
        timeoutMs: options.settleTimeoutMs ?? MAX_EXTRA_LOOKS * RETRY_MS,
        intervalMs: RETRY_MS,
      });
      // Still held back after these looks: another look soon, not at the next sweep.
      for (const [projection, result] of results) {
        if (needsAnotherLook(result))
          await lookAgainLater(again, 'project', { projection }, projection).catch((error: Error) =>
            options.onError?.(error),
          );
      }
      return Object.fromEntries([...results].map(([k, v]) => [k, v.kind]));
    },
    { connection, prefix: options.prefix, concurrency: options.concurrency ?? 2 },
  );
  return {
    worker,
    async close() {
      await worker.close();
      await again.close();
      connection.disconnect();
    },
  };
}
