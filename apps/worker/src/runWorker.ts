import { SetupError } from '@qiraa/db';
import { startProjectionWorker } from '@qiraa/projections';
import type { Config, Runtime } from '@qiraa/runtime';
import { openRuntime } from '@qiraa/runtime';

export interface RunningWorker {
  runtime: Runtime;
  close(): Promise<void>;
}

/**
 * Consumes the projection wake-up and sweep jobs. Any number of these may run: the projection's advisory
 * lock lets one instance work a projection at a time, so BullMQ's at-least-once delivery is harmless.
 */
export async function runWorker(config: Config, log: (line: string) => void): Promise<RunningWorker> {
  if (!config.redisUrl) {
    throw new SetupError(
      'REDIS_URL',
      'REDIS_URL is required for the worker; set it to the Redis the API uses (redis://host:6379), or run no ' +
        'worker: without REDIS_URL the API runs projections itself',
    );
  }
  const runtime = await openRuntime(config, { role: 'worker', log });
  const worker = startProjectionWorker({ sql: runtime.sql, store: runtime.store }, runtime.projector.projections, {
    redisUrl: config.redisUrl,
    prefix: config.queuePrefix,
    onError: (error) => log(`redis: ${error.message}`),
  });
  worker.worker.on('failed', (job, error) => log(`job ${job?.name} failed: ${error.message}`));
  return {
    runtime,
    async close() {
      await worker.close();
      await runtime.close();
    },
  };
}
