import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { BullmqOptions } from '../bullmq';
import { lookAgainLater } from '../lookAgainLater';
import type { RunnerDeps } from '../runProjectionBatch';
import { type Reaction, reactionsFor } from './reaction';
import { catchUpReactions, needsAnotherLook, type Reactor, type ReactorOptions } from './reactor';

export const REACTION_QUEUE = 'qiraa-reactions';
const SWEEP_SCHEDULER = 'reaction-sweep';
const MAX_LOOK_MS = 5_000;

/** One waiting wake-up per reaction plus one queued behind an active run, as for projections. */
const wakeOptions = (reaction: string) => ({
  deduplication: { id: reaction, keepLastIfActive: true },
  removeOnComplete: true,
  removeOnFail: 100,
});

/**
 * API side with REDIS_URL: a wake-up is a job naming the reaction, run by the workers (apps/worker). The job
 * carries no event: the log, the checkpoint and the parked table are the truth, so a lost or doubled job
 * is harmless and the sweep repairs a lost one.
 */
export function bullmqReactor(
  deps: RunnerDeps,
  reactions: readonly Reaction[],
  options: BullmqOptions & Pick<ReactorOptions, 'retry'>,
): Reactor {
  const connection = new Redis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  const report = (error: Error) => options.onError?.(error);
  connection.on('error', report);
  const queue = new Queue(REACTION_QUEUE, { connection, prefix: options.prefix });
  queue.on('error', report);
  return {
    mode: 'bullmq',
    reactions,
    wake(events) {
      for (const reaction of reactionsFor(reactions, events)) {
        queue.add('react', { reaction: reaction.name }, wakeOptions(reaction.name)).catch(() => {});
      }
    },
    catchUp: (name, o) => catchUpReactions(deps, reactions, name, { ...o, retry: options.retry }),
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

export interface ReactionWorker {
  readonly worker: Worker<ReactionJobData>;
  close(): Promise<void>;
}

/** A wake-up's data: the reaction to run (none on the sweep). */
interface ReactionJobData {
  reaction?: string;
}

/** Worker side: runs the named reaction, or all of them for the sweep. */
export function startReactionWorker(
  deps: RunnerDeps,
  reactions: readonly Reaction[],
  options: BullmqOptions &
    Pick<ReactorOptions, 'retry'> & {
      concurrency?: number;
      /** How long a job keeps looking at events held back by an older open transaction (default 5 s). */
      lookMs?: number;
    },
): ReactionWorker {
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', (error) => options.onError?.(error));
  const again = new Queue(REACTION_QUEUE, { connection, prefix: options.prefix });
  again.on('error', (error) => options.onError?.(error));
  const worker = new Worker<ReactionJobData>(
    REACTION_QUEUE,
    async (job) => {
      const name = job.name === 'sweep' ? undefined : job.data.reaction;
      // A wake-up for a reaction this build does not know (a rolling deploy) waits for the sweep of a newer one.
      if (name && !reactions.some((r) => r.name === name)) return { unknown: name };
      const results = await catchUpReactions(deps, reactions, name, {
        timeoutMs: options.lookMs ?? MAX_LOOK_MS,
        retry: options.retry,
      });
      for (const [reaction, result] of results) {
        if (needsAnotherLook(result))
          await lookAgainLater(again, 'react', { reaction }, reaction).catch((error: Error) =>
            options.onError?.(error),
          );
      }
      return Object.fromEntries([...results].map(([k, v]) => [k, v.kind]));
    },
    // Retries and backoff run inside the job (per event), so a job can last seconds; it holds no lock in Redis
    // that matters (the PostgreSQL advisory lock decides who works), hence a generous lock duration.
    { connection, prefix: options.prefix, concurrency: options.concurrency ?? 2, lockDuration: 120_000 },
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
