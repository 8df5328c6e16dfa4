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
  /**
   * /readyz reports a projection whose oldest event not yet projected is older than this many seconds
   * (PROJECTION_STALL_SECONDS, default 120; 0 turns the lag check off). docs/operations.md, "Stalls".
   */
  readonly projectionStallSeconds: number;
  /** HS256 key for access tokens; required in production, kept in DATA_DIR otherwise. */
  readonly jwtSecret: string | undefined;
  /**
   * Which proxies' `X-Forwarded-For` to believe (fastify `trustProxy`): false (default), true (any), or a
   * comma list of proxy addresses and CIDRs. Per-source limits (student login) key on the address it yields.
   */
  readonly trustProxy: boolean | string;
  /** QIRAA_CLOCK_SHIFT_DAYS: whole days the clock of every rule, schedule and response runs ahead (never in production). */
  readonly clockShiftDays: number;
  /** SCHOOL_DAY_END_HOUR: the local hour (0-23) at which open training days of a school day end `window_closed`. */
  readonly schoolDayEndHour: number;
  /** SCHEDULE_POLL_MS: how often the in-process scheduler looks for due ticks (without REDIS_URL). */
  readonly schedulePollMs: number;
  /**
   * METRICS_TOKEN: the bearer token a Prometheus scrape of /metrics must send; unset, /metrics answers 404
   * (docs/operations.md, "Metrics").
   */
  readonly metricsToken: string | undefined;
  /** WEBAUTHN_RP_ID, WEBAUTHN_RP_NAME, WEBAUTHN_ORIGINS and OIDC_PROVIDERS with OIDC_<NAME>_* per provider. */
  readonly passwordless: PasswordlessSettings;
  /**
   * WRITE_COMBINE_MS (a window of 1-50 ms; unset or 0: off), WRITE_COMBINE_MAX (most units a batch, default
   * 32) and WRITE_COMBINE_LANES (batches side by side, default 1): the write combiner for the write paths that opt in (docs/architecture.md, "The write combiner").
   */
  readonly writeCombine: { readonly windowMs: number; readonly maxBatch: number; readonly lanes: number } | null;
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

/** At least 16 characters: a scrape credential that can be guessed is no protection. */
function metricsToken(value: string | undefined): string | undefined {
  const v = nonEmpty(value);
  if (v !== undefined && v.length < 16) {
    throw new SetupError(
      'METRICS_TOKEN',
      `METRICS_TOKEN must be at least 16 characters (got ${v.length}); set a random one, e.g. openssl rand -hex 24, or unset it to turn /metrics off`,
    );
  }
  return v;
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

/**
 * A signed whole number of days. Refused in production whatever its value: a shifted clock in production would
 * end training days, expire codes and raise alerts on the wrong day for real children.
 */
function clockShiftDays(value: string | undefined, nodeEnv: string): number {
  const v = nonEmpty(value);
  if (v === undefined) return 0;
  if (nodeEnv === 'production') {
    throw new SetupError(
      'QIRAA_CLOCK_SHIFT_DAYS',
      'QIRAA_CLOCK_SHIFT_DAYS moves the clock of every rule and is for tests and demos only; unset it when NODE_ENV=production',
    );
  }
  const n = Number(v);
  if (!/^[+-]?\d+$/.test(v) || !Number.isSafeInteger(n) || Math.abs(n) > 36_500) {
    throw new SetupError(
      'QIRAA_CLOCK_SHIFT_DAYS',
      `QIRAA_CLOCK_SHIFT_DAYS must be a whole number of days (e.g. 21 or -3), got "${v}"; fix or unset it`,
    );
  }
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = nonEmpty(env.NODE_ENV) ?? 'development';
  return {
    port: integer(env.PORT, 8787, 'PORT', 65_535),
    host: nonEmpty(env.HOST) ?? '0.0.0.0',
    nodeEnv,
    logLevel: nonEmpty(env.LOG_LEVEL) ?? 'info',
    databaseUrl: databaseUrl(env.DATABASE_URL),
    dataDir: path.resolve(nonEmpty(env.DATA_DIR) ?? './.data'),
    redisUrl: nonEmpty(env.REDIS_URL),
    eventstoreUrl: nonEmpty(env.EVENTSTORE_URL),
    queuePrefix: nonEmpty(env.QUEUE_PREFIX) ?? 'qiraa',
    sweepIntervalMs: integer(env.PROJECTION_SWEEP_MS, 5000, 'PROJECTION_SWEEP_MS'),
    projectionStallSeconds: integer(env.PROJECTION_STALL_SECONDS, 120, 'PROJECTION_STALL_SECONDS'),
    jwtSecret: nonEmpty(env.JWT_SECRET),
    trustProxy: trustProxy(env.TRUST_PROXY),
    clockShiftDays: clockShiftDays(env.QIRAA_CLOCK_SHIFT_DAYS, nodeEnv),
    schoolDayEndHour: integer(env.SCHOOL_DAY_END_HOUR, 20, 'SCHOOL_DAY_END_HOUR', 23),
    schedulePollMs: integer(env.SCHEDULE_POLL_MS, 30_000, 'SCHEDULE_POLL_MS'),
    metricsToken: metricsToken(env.METRICS_TOKEN),
    passwordless: {
      webauthn: {
        rpId: nonEmpty(env.WEBAUTHN_RP_ID) ?? 'localhost',
        rpName: nonEmpty(env.WEBAUTHN_RP_NAME) ?? 'qiraa',
        origins: list(env.WEBAUTHN_ORIGINS ?? 'http://localhost:8787'),
      },
      oidcProviders: oidcProviders(env),
    },
    writeCombine: writeCombine(env),
  };
}

function writeCombine(env: NodeJS.ProcessEnv): Config['writeCombine'] {
  const windowMs = integer(env.WRITE_COMBINE_MS, 0, 'WRITE_COMBINE_MS', 50);
  const maxBatch = integer(env.WRITE_COMBINE_MAX, 32, 'WRITE_COMBINE_MAX', 1000);
  const lanes = integer(env.WRITE_COMBINE_LANES, 1, 'WRITE_COMBINE_LANES', 64);
  return windowMs > 0 && maxBatch > 0 && lanes > 0 ? { windowMs, maxBatch, lanes } : null;
}
