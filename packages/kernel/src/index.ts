import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import type { Projection, Projector } from '@qiraa/projections';
import type { FastifyPluginAsync } from 'fastify';

/** What a context's routes and commands get from the app: never another context's internals. */
export interface ContextDeps {
  readonly sql: Sql;
  readonly store: EventStore;
  readonly projector: Projector;
  readonly nodeEnv: string;
}

/**
 * A bounded context as the apps see it: its read models (projections) and, when it has an HTTP face,
 * a fastify plugin registered under /api. Contexts talk to each other only through their package exports.
 */
export interface BoundedContext {
  readonly name: string;
  readonly projections: readonly Projection[];
  routes?(deps: ContextDeps): FastifyPluginAsync;
}

export function defineContext(context: BoundedContext): BoundedContext {
  return context;
}
