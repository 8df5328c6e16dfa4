import { SetupError } from '@qiraa/db';
import type { Config } from '@qiraa/runtime/boot';

/** The worker's one required setting beyond the API's: checked by main.ts before it loads the worker's modules. */
export function requireRedisUrl(config: Config): string {
  if (!config.redisUrl) {
    throw new SetupError(
      'REDIS_URL',
      'REDIS_URL is required for the worker; set it to the Redis the API uses (redis://host:6379), or run no ' +
        'worker: without REDIS_URL the API runs projections itself',
    );
  }
  return config.redisUrl;
}
