import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ApiErrorSchema,
  clientErrorHandler,
  frameworkErrors,
  installErrorMapper,
  installWriteContext,
  validatorCompiler,
} from '@qiraa/http-kit';
import type { Runtime } from '@qiraa/runtime';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { nanoid } from 'nanoid';
import { type Serializers, serializerFactory } from './plugins/lazySerializers';
import { installMetrics } from './plugins/metrics';
import { registerOpenApi } from './plugins/openapi';
import { rewritePrintedLink } from './plugins/printedLink';
import { installRequestLog } from './plugins/requestLog';
import { healthRoutes } from './routes/health';

export interface RegisteredRoute {
  method: string;
  url: string;
  /** Top-level field names of the path, query and body schemas (the matrix finds the routes naming a resource). */
  inputs: readonly string[];
  /** The route declares a body schema (the matrix sends those an invalid body: 403 before validation). */
  hasBody: boolean;
}

type JsonSchema = { properties?: Record<string, unknown>; oneOf?: JsonSchema[]; anyOf?: JsonSchema[] } | undefined;
const fieldsOf = (schema: JsonSchema): string[] => [
  ...Object.keys(schema?.properties ?? {}),
  ...[...(schema?.oneOf ?? []), ...(schema?.anyOf ?? [])].flatMap(fieldsOf),
];

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route as registered (the authorization matrix test compares its rows with this list). */
    registeredRoutes: readonly RegisteredRoute[];
  }
}

export type AppRuntime = Pick<Runtime, 'deps' | 'contexts' | 'readiness' | 'projector' | 'sql' | 'store'> &
  Partial<Pick<Runtime, 'reactor'>>;

export interface BuildOptions {
  logLevel?: string;
  /** Largest accepted JSON body; routes may set a larger `bodyLimit` of their own (content import). */
  bodyLimit?: number;
  /** fastify `trustProxy` (configuration TRUST_PROXY); off by default. */
  trustProxy?: boolean | string;
  /** Configuration METRICS_TOKEN: the bearer token /metrics asks for; unset, /metrics answers 404. */
  metricsToken?: string;
  /** When response serializers are built: on first use (default, lazySerializers.ts) or all at `ready()`. */
  serializers?: Serializers;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * The HTTP app: the error mapper, validation, OpenAPI, health, metrics, then each bounded context's
 * plugin under /api. It does not listen; main.ts does, and tests use inject().
 */
export async function buildApp(runtime: AppRuntime, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: options.logLevel ?? 'info' },
    // requestLog.ts writes the one line per request; fastify's own two lines are off.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : nanoid(16);
    },
    ajv: { customOptions: { allErrors: true } },
    trustProxy: options.trustProxy ?? false,
    schemaController: { compilersFactory: { buildSerializer: serializerFactory(options.serializers ?? 'lazy') } },
    rewriteUrl: (req) => rewritePrintedLink(req.url ?? '/'),
    // Router errors and requests Node's parser refuses leave in the ApiError envelope too.
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    const schema = (route.schema ?? {}) as Record<'params' | 'querystring' | 'body', JsonSchema>;
    const inputs = [...new Set([schema.params, schema.querystring, schema.body].flatMap(fieldsOf))];
    for (const method of [route.method].flat())
      routes.push({ method: String(method), url: route.url, inputs, hasBody: Boolean(schema.body) });
  });
  app.decorate('registeredRoutes', routes);
  app.addSchema(ApiErrorSchema);
  for (const schema of runtime.contexts.flatMap((c) => c.sharedSchemas ?? [])) app.addSchema(schema);
  installErrorMapper(app);
  // Root hooks: onRequest runs before the auth hook (under /api), preValidation after it.
  installWriteContext(app, (request) => {
    const caller = (request as { caller?: { userId: number; organizationId: string | null } | null }).caller;
    return caller ? { userId: caller.userId, organizationId: caller.organizationId } : null;
  });
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  installRequestLog(app);
  await registerOpenApi(app);
  installMetrics(
    app,
    { sql: runtime.sql, store: runtime.store },
    runtime.projector.projections,
    runtime.reactor?.reactions,
    options.metricsToken,
  );
  healthRoutes(app, runtime.readiness);

  await app.register(
    async (api) => {
      for (const context of runtime.contexts) {
        if (context.plugins) await api.register(context.plugins(runtime.deps));
      }
      for (const context of runtime.contexts) {
        if (context.routes) await api.register(context.routes(runtime.deps));
      }
    },
    { prefix: '/api' },
  );
  return app;
}
