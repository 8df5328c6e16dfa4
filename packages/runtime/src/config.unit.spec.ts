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
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT must be a non-negative integer up to 65535/);
  });

  it('refuses a malformed DATABASE_URL by name, without repeating it (it holds the password)', () => {
    for (const url of ['postgres://qiraa:hunter2#x@db:port/q', 'hunter2', 'mysql://qiraa:hunter2@db/q']) {
      let message = '';
      try {
        loadConfig({ DATABASE_URL: url });
      } catch (error) {
        expect(error).toMatchObject({ name: 'SetupError', setting: 'DATABASE_URL' });
        message = (error as Error).message;
      }
      expect(message).toMatch(/^DATABASE_URL is not a PostgreSQL URL: write it as postgres:\/\/user:password@host/);
      expect(message).not.toContain('hunter2');
    }
    expect(loadConfig({ DATABASE_URL: 'postgresql://q:p%23w@db.internal:6432/q?sslmode=require' }).databaseUrl).toBe(
      'postgresql://q:p%23w@db.internal:6432/q?sslmode=require',
    );
  });

  it('reads QIRAA_CLOCK_SHIFT_DAYS as whole days either way, and refuses it in production whatever its value', () => {
    expect(loadConfig({}).clockShiftDays).toBe(0);
    expect(loadConfig({ QIRAA_CLOCK_SHIFT_DAYS: '21' }).clockShiftDays).toBe(21);
    expect(loadConfig({ QIRAA_CLOCK_SHIFT_DAYS: '-3' }).clockShiftDays).toBe(-3);
    for (const bad of ['1.5', 'x', '1e3', '99999999']) {
      expect(() => loadConfig({ QIRAA_CLOCK_SHIFT_DAYS: bad })).toThrow(/whole number of days/);
    }
    for (const v of ['21', '0']) {
      expect(() => loadConfig({ NODE_ENV: 'production', QIRAA_CLOCK_SHIFT_DAYS: v })).toThrow(
        /QIRAA_CLOCK_SHIFT_DAYS .* unset it when NODE_ENV=production/,
      );
    }
    expect(loadConfig({ NODE_ENV: 'production', QIRAA_CLOCK_SHIFT_DAYS: ' ' }).clockShiftDays).toBe(0);
  });

  it('reads the end of the school day (0-23, default 20:00) and the scheduler poll', () => {
    expect(loadConfig({})).toMatchObject({ schoolDayEndHour: 20, schedulePollMs: 30_000 });
    expect(loadConfig({ SCHOOL_DAY_END_HOUR: '15' }).schoolDayEndHour).toBe(15);
    expect(() => loadConfig({ SCHOOL_DAY_END_HOUR: '24' })).toThrow(/SCHOOL_DAY_END_HOUR .* up to 23/);
  });

  it('reads METRICS_TOKEN (unset: /metrics off) and refuses one shorter than 16 characters', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: ' ' }).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a'.repeat(16) }).metricsToken).toBe('a'.repeat(16));
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN must be at least 16 characters \(got 5\)/,
    );
  });

  it('reads TRUST_PROXY as off, on or a list of proxy addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
  });
});

describe('passwordless settings', () => {
  it('defaults to the development relying party and no OIDC provider', () => {
    expect(loadConfig({}).passwordless).toEqual({
      webauthn: { rpId: 'localhost', rpName: 'qiraa', origins: ['http://localhost:8787'] },
      oidcProviders: [],
    });
  });

  it('reads the relying party and each named provider', () => {
    const config = loadConfig({
      WEBAUTHN_RP_ID: 'qiraa.example',
      WEBAUTHN_ORIGINS: 'https://app.qiraa.example, https://qiraa.example',
      OIDC_PROVIDERS: 'google,entra-west',
      OIDC_GOOGLE_ISSUER: 'https://accounts.google.com',
      OIDC_GOOGLE_CLIENT_ID: 'g-id',
      OIDC_GOOGLE_CLIENT_SECRET: 'g-secret',
      OIDC_GOOGLE_REDIRECT_URI: 'https://app.qiraa.example/sso/google',
      OIDC_ENTRA_WEST_ISSUER: 'https://login.microsoftonline.com/tenant/v2.0',
      OIDC_ENTRA_WEST_CLIENT_ID: 'e-id',
      OIDC_ENTRA_WEST_REDIRECT_URI: 'https://app.qiraa.example/sso/entra',
    });
    expect(config.passwordless.webauthn.origins).toEqual(['https://app.qiraa.example', 'https://qiraa.example']);
    expect(config.passwordless.oidcProviders).toEqual([
      {
        name: 'google',
        issuer: 'https://accounts.google.com',
        clientId: 'g-id',
        clientSecret: 'g-secret',
        redirectUri: 'https://app.qiraa.example/sso/google',
      },
      {
        name: 'entra-west',
        issuer: 'https://login.microsoftonline.com/tenant/v2.0',
        clientId: 'e-id',
        clientSecret: undefined,
        redirectUri: 'https://app.qiraa.example/sso/entra',
      },
    ]);
  });

  it('refuses a provider without its client id or with a bad issuer, by variable name', () => {
    expect(() => loadConfig({ OIDC_PROVIDERS: 'google' })).toThrow(/OIDC_GOOGLE_CLIENT_ID is required/);
    expect(() =>
      loadConfig({ OIDC_PROVIDERS: 'google', OIDC_GOOGLE_CLIENT_ID: 'x', OIDC_GOOGLE_ISSUER: 'not a url' }),
    ).toThrow(/OIDC_GOOGLE_ISSUER must be an absolute URL/);
    expect(() => loadConfig({ OIDC_PROVIDERS: 'Google!' })).toThrow(/OIDC_PROVIDERS names lower-case/);
  });
});

describe('write combiner settings', () => {
  it('is off unless WRITE_COMBINE_MS names a window; WRITE_COMBINE_MAX bounds a batch (default 32)', () => {
    expect(loadConfig({}).writeCombine).toBeNull();
    expect(loadConfig({ WRITE_COMBINE_MS: '0' }).writeCombine).toBeNull();
    expect(loadConfig({ WRITE_COMBINE_MS: '2' }).writeCombine).toEqual({ windowMs: 2, maxBatch: 32, lanes: 1 });
    expect(
      loadConfig({ WRITE_COMBINE_MS: '5', WRITE_COMBINE_MAX: '8', WRITE_COMBINE_LANES: '4' }).writeCombine,
    ).toEqual({ windowMs: 5, maxBatch: 8, lanes: 4 });
    expect(() => loadConfig({ WRITE_COMBINE_MS: '500' })).toThrow(
      /WRITE_COMBINE_MS must be a non-negative integer up to 50/,
    );
    expect(() => loadConfig({ WRITE_COMBINE_MS: '2', WRITE_COMBINE_MAX: 'x' })).toThrow(/WRITE_COMBINE_MAX/);
  });
});
