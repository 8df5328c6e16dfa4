import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import type { Projection, Projector, Reaction } from '@qiraa/projections';
import type { FastifyPluginAsync } from 'fastify';
import type { TSchema } from 'typebox';
import type { Clock } from './clock';
import type { Schedule, ScheduleTrigger } from './schedule';

export { type Clock, manualClock, shiftedClock, systemClock } from './clock';
export { addDays, localInstant, wallClockIn } from './localTime';
export {
  isPersonName,
  normalizePersonName,
  PERSON_NAME_MAX,
  PersonName,
  PersonNameInput,
} from './personName';
export {
  defineSchedule,
  type Schedule,
  type ScheduleCadence,
  type ScheduleOutcome,
  type ScheduleTick,
  type ScheduleTrigger,
} from './schedule';

/** What a context's routes and commands get from the app: never another context's internals. */
export interface ContextDeps {
  readonly sql: Sql;
  readonly store: EventStore;
  readonly projector: Projector;
  readonly nodeEnv: string;
  /** The one source of "now" for domain rules, schedules and response timestamps (clock.ts). */
  readonly clock: Clock;
  /** Runs a schedule at once, outside its ticks; absent where no scheduler runs (the CLI, some tests). */
  readonly schedules?: ScheduleTrigger;
  /** HS256 key of the access tokens. */
  readonly jwtSecret: string;
  /** Passkey relying party and OpenID Connect providers (docs/identity-passwordless.md); defaults when absent. */
  readonly passwordless?: PasswordlessSettings;
}

/** Where passkeys are valid and which school identity providers sign adults in. */
export interface PasswordlessSettings {
  readonly webauthn: { readonly rpId: string; readonly rpName: string; readonly origins: readonly string[] };
  readonly oidcProviders: readonly OidcProviderSettings[];
}

export interface OidcProviderSettings {
  /** The path segment of /api/auth/oidc/{provider}/…, e.g. `google` or `entra`. */
  readonly name: string;
  readonly issuer: string;
  readonly clientId: string;
  /** Absent: a public client (PKCE only, no client secret). */
  readonly clientSecret: string | undefined;
  /** The redirect URI registered with the provider (the front end's page that forwards code and state). */
  readonly redirectUri: string;
}

/**
 * A bounded context as the apps see it: its read models (projections) and, when it has an HTTP face,
 * a fastify plugin registered under /api. Contexts talk to each other only through their package exports.
 */
export interface BoundedContext {
  readonly name: string;
  readonly projections: readonly Projection[];
  /** Rules that wait for time, run once per due tick across every process (packages/runtime/src/schedules). */
  readonly schedules?: readonly Schedule[];
  /**
   * Its effects on other contexts (a notification, a credit): checkpointed consumers of the event log with
   * retries and parking (packages/projections/src/reactions, docs/architecture.md "Adding a reaction").
   */
  readonly reactions?: readonly Reaction[];
  /**
   * Schemas with an `$id` that routes reference with `Type.Ref(id)`; added at the root (a child scope's
   * addSchema would rebuild that scope's validator compiler) and named components in the OpenAPI document.
   */
  readonly sharedSchemas?: readonly TSchema[];
  /** Hooks and decorators for every /api route (wrapped in fastify-plugin), registered before all routes. */
  plugins?(deps: ContextDeps): FastifyPluginAsync;
  routes?(deps: ContextDeps): FastifyPluginAsync;
}

export function defineContext(context: BoundedContext): BoundedContext {
  return context;
}
