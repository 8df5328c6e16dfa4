import { startProjectionWorker, startReactionWorker } from '@qiraa/projections';
import type { Config, Runtime } from '@qiraa/runtime';
import { openRuntime } from '@qiraa/runtime';
import { requireRedisUrl } from './requireRedisUrl';

export interface RunningWorker {
  runtime: Runtime;
  close(): Promise<void>;
}

/**
 * Consumes the projection and reaction wake-up and sweep jobs. Any number of these may run: the projection's advisory
 * lock lets one instance work a projection at a time, so BullMQ's at-least-once delivery is harmless.
 */
export async function runWorker(
  config: Config,
  log: (line: string) => void,
  logError: (line: string) => void = log,
  holdStop?: <T>(step: Promise<T>) => Promise<T>,
): Promise<RunningWorker> {
  const redisUrl = requireRedisUrl(config);
  const runtime = await openRuntime(config, { role: 'worker', log, logError, ...(holdStop ? { holdStop } : {}) });
  const worker = startProjectionWorker(
    { sql: runtime.sql, store: runtime.store, clock: runtime.clock },
    runtime.projector.projections,
    {
      redisUrl,
      prefix: config.queuePrefix,
      onError: (error) => logError(`redis: ${error.message}`),
    },
  );
  // A failed run of a projection (or of a reaction, which is one) is written at error level in every mode.
  worker.worker.on('failed', (job, error) => {
    const projection = job?.data.projection;
    logError(`job ${job?.name}${projection ? ` ${projection}` : ''} failed: ${error.message}`);
  });
  // Reactions ride their own queue: their runs last as long as an event's retries, never delaying projections.
  const reactions = startReactionWorker(
    { sql: runtime.sql, store: runtime.store, clock: runtime.clock },
    runtime.reactor.reactions,
    {
      redisUrl,
      prefix: config.queuePrefix,
      onError: (error) => logError(`redis: ${error.message}`),
    },
  );
  reactions.worker.on('failed', (job, error) => logError(`reaction job ${job?.name} failed: ${error.message}`));
  return {
    runtime,
    async close() {
      await Promise.all([worker.close(), reactions.close()]);
      await runtime.close();
    },
  };
}
