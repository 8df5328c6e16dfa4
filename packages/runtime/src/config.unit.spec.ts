import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('loadConfig', () => {
  it('defaults to port 8787, embedded storage under ./.data and in-process projections', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8787, host: '0.0.0.0', databaseUrl: undefined, redisUrl: undefined });
    expect(config.dataDir).toBe(path.resolve('.data'));
  });

  it('reads the production variables and treats blank ones as unset', () => {
    const config = loadConfig({ PORT: '9000', DATABASE_URL: 'postgres://db/q', REDIS_URL: ' ', EVENTSTORE_URL: '' });
    expect(config).toMatchObject({
      port: 9000,
      databaseUrl: 'postgres://db/q',
      redisUrl: undefined,
      eventstoreUrl: undefined,
    });
  });

  it('refuses a port that is not a number', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT must be a non-negative integer/);
  });

  it('reads TRUST_PROXY as off, on or a list of proxy addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
  });
});
