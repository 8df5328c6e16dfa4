import path from 'node:path';
import { isDatabaseUrl, SetupError } from '@qiraa/db';
import type { OidcProviderSettings, PasswordlessSettings } from '@qiraa/kernel';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly nodeEnv: string;
  readonly logLevel: string;
  /** PostgreSQL URL; absent means the embedded server under dataDir. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  /** With Redis, projections run in BullMQ workers (apps/worker); without, in the API process. */
  readonly redisUrl: string | undefined;
  /** KurrentDB/EventStoreDB connection string; absent means the PostgreSQL event store. */
  readonly eventstoreUrl: string | undefined;
  readonly queuePrefix: string;
  readonly sweepIntervalMs: number;
  /** HS256 key for access tokens; required in production, kept in DATA_DIR otherwise. */
  readonly jwtSecret: string | undefined;
  /**
   * Which proxies' `X-Forwarded-For` to believe (fastify `trustProxy`): false (default), true (any), or a
   * comma list of proxy addresses and CIDRs. Per-source limits (student login) key on the address it yields.
   */
  readonly trustProxy: boolean | string;
  /** WEBAUTHN_RP_ID, WEBAUTHN_RP_NAME, WEBAUTHN_ORIGINS and OIDC_PROVIDERS with OIDC_<NAME>_* per provider. */
  readonly passwordless: PasswordlessSettings;
}

function list(value: string | undefined): string[] {
  return (nonEmpty(value) ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

function url(value: string | undefined, name: string): string {
  const v = nonEmpty(value);
  if (v === undefined || !URL.canParse(v)) {
    throw new SetupError(name, `${name} must be an absolute URL (https://…), got "${v ?? ''}"; set ${name}`);
  }
  return v;
}

/** OIDC_PROVIDERS=google,entra, then OIDC_GOOGLE_ISSUER, _CLIENT_ID, _REDIRECT_URI and optionally _CLIENT_SECRET. */
function oidcProviders(env: NodeJS.ProcessEnv): OidcProviderSettings[] {
  return list(env.OIDC_PROVIDERS).map((name) => {
    if (!/^[a-z][a-z0-9-]{0,31}$/.test(name)) {
      throw new SetupError('OIDC_PROVIDERS', `OIDC_PROVIDERS names lower-case providers (a-z, 0-9, -), got "${name}"`);
    }
    const key = `OIDC_${name.toUpperCase().replace(/-/g, '_')}`;
    const clientId = nonEmpty(env[`${key}_CLIENT_ID`]);
    if (clientId === undefined) throw new SetupError(`${key}_CLIENT_ID`, `${key}_CLIENT_ID is required for "${name}"`);
    return {
      name,
      issuer: url(env[`${key}_ISSUER`], `${key}_ISSUER`),
      clientId,
      clientSecret: nonEmpty(env[`${key}_CLIENT_SECRET`]),
      redirectUri: url(env[`${key}_REDIRECT_URI`], `${key}_REDIRECT_URI`),
    };
  });
}

function trustProxy(value: string | undefined): boolean | string {
  const v = nonEmpty(value);
  if (v === undefined || v === 'false') return false;
  return v === 'true' ? true : v;
}

const nonEmpty = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : undefined);

function integer(value: string | undefined, fallback: number, name: string, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > max) {
    throw new SetupError(
      name,
      `${name} must be a non-negative integer${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ''}, got "${value}"; fix or unset ${name}`,
    );
  }
  return n;
}

/** The URL itself is never quoted back: it usually holds a password. */
function databaseUrl(value: string | undefined): string | undefined {
  const url = nonEmpty(value);
  if (url !== undefined && !isDatabaseUrl(url)) {
    throw new SetupError(
      'DATABASE_URL',
      'DATABASE_URL is not a PostgreSQL URL: write it as postgres://user:password@host:5432/database ' +
        '(percent-encode @ : / # ? in the password), or unset it to use the embedded PostgreSQL',
    );
  }
  return url;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: integer(env.PORT, 8787, 'PORT', 65_535),
    host: nonEmpty(env.HOST) ?? '0.0.0.0',
    nodeEnv: nonEmpty(env.NODE_ENV) ?? 'development',
    logLevel: nonEmpty(env.LOG_LEVEL) ?? 'info',
    databaseUrl: databaseUrl(env.DATABASE_URL),
    dataDir: path.resolve(nonEmpty(env.DATA_DIR) ?? './.data'),
    redisUrl: nonEmpty(env.REDIS_URL),
    eventstoreUrl: nonEmpty(env.EVENTSTORE_URL),
    queuePrefix: nonEmpty(env.QUEUE_PREFIX) ?? 'qiraa',
    sweepIntervalMs: integer(env.PROJECTION_SWEEP_MS, 5000, 'PROJECTION_SWEEP_MS'),
    jwtSecret: nonEmpty(env.JWT_SECRET),
    trustProxy: trustProxy(env.TRUST_PROXY),
    passwordless: {
      webauthn: {
        rpId: nonEmpty(env.WEBAUTHN_RP_ID) ?? 'localhost',
        rpName: nonEmpty(env.WEBAUTHN_RP_NAME) ?? 'qiraa',
        origins: list(env.WEBAUTHN_ORIGINS ?? 'http://localhost:8787'),
      },
      oidcProviders: oidcProviders(env),
    },
  };
}
