import { SetupError, withoutCredentials } from '@qiraa/db';
import { Redis } from 'ioredis';

/**
 * One PING before anything waits on Redis: BullMQ's `waitUntilReady` waits for ever on a Redis that is not
 * there, so a start-up with a wrong REDIS_URL would neither serve nor say why.
 */
export async function assertRedisReachable(url: string, timeoutMs = 5000): Promise<void> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  redis.on('error', () => {}); // the rejected connect() or ping below reports it
  let timer: NodeJS.Timeout | undefined;
  try {
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    });
    await Promise.race([redis.connect().then(() => redis.ping()), late]);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new SetupError(
      'REDIS_URL',
      `REDIS_URL: cannot reach Redis at ${withoutCredentials(url)} (${reason}); start Redis there, correct ` +
        'REDIS_URL, or unset it to run projections in the API process',
    );
  } finally {
    clearTimeout(timer);
    redis.disconnect();
  }
}

/** The projector's start (BullMQ's queue set-up), bounded like the reachability check above. */
export async function startProjectorWithin(
  projector: { mode: string; start(): Promise<void> },
  redisUrl: string | undefined,
  timeoutMs = 10_000,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new SetupError(
            'REDIS_URL',
            `REDIS_URL: the projection queue at ${withoutCredentials(redisUrl ?? '?')} did not get ready within ` +
              `${timeoutMs / 1000} s; check that Redis, or unset REDIS_URL to run projections in the API process`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    await Promise.race([projector.start(), late]);
  } finally {
    clearTimeout(timer);
  }
}
