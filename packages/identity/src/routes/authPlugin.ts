import jwt from '@fastify/jwt';
import { recordAuditEvent } from '@qiraa/audit';
import { ApiError } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { holds, isSuperAdmin } from '../engine/caller';
import { ACCESS_TOKEN_SECONDS, type AccessClaims, JWT_ALGORITHM } from '../engine/tokenClaims';
import { tenantContextCache } from '../queries/tenantContextCache';

const tokenErrors: Record<string, [string, string]> = {
  FST_JWT_NO_AUTHORIZATION_IN_HEADER: ['TOKEN_MISSING', 'no Authorization header'],
  FST_JWT_AUTHORIZATION_TOKEN_EXPIRED: ['TOKEN_EXPIRED', 'access token expired; call refresh'],
};

async function verifiedClaims(request: FastifyRequest): Promise<AccessClaims> {
  try {
    return await request.jwtVerify<AccessClaims>();
  } catch (error) {
    const [code, message] = tokenErrors[(error as { code?: string }).code ?? ''] ?? [
      'TOKEN_INVALID',
      'access token is malformed or not recognized',
    ];
    const hint = code === 'TOKEN_MISSING' ? request.routeOptions.config?.signInHint : undefined;
    if (hint) throw new ApiError(401, code, hint.message, { details: hint.details });
    throw new ApiError(401, code, message);
  }
}

const denied = () => new ApiError(403, 'PERMISSION_DENIED', 'permission set does not cover the operation');

/**
 * What a refused caller's target check may answer besides 403: 404 (the tenant rule) and a failing
 * dependency (5xx, or an error that is no input fault). The check reads the input before validation, so a
 * malformed field (a TypeError on an odd shape, a value PostgreSQL cannot compare, any other 4xx) names no
 * resource of theirs and leaves the refusal at 403.
 */
function refusalAfterTarget(error: unknown): unknown {
  if (error instanceof ApiError) return error.status === 404 || error.status >= 500 ? error : denied();
  if (error instanceof TypeError || error instanceof RangeError) return denied();
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (code.startsWith('22') || code === 'UNDEFINED_VALUE')) return denied();
  return error;
}

/**
 * The tenant context, resolved once for every /api route: verify the bearer token (HS256 only), confirm
 * the user and organization through the tenant-context cache (disabled ones stop at once), check the
 * route's `anyPermission`, and record
 * a super-bypass audit event for every super-scope administrator call.
 *
 * Tenant before permission, permission before validation: a caller without the permission on a route that
 * names a resource is refused in `preValidation`, right after the route's `target` check ran on the parsed
 * but not yet validated input, so another organization's or a missing resource answers 404, and otherwise
 * the answer is 403 whatever the body (a schema is never revealed to a caller who may not use the route).
 * App-level preValidation hooks run before a route's own, so no route check comes first. A route with a path
 * parameter and `anyPermission` cannot be registered without `target`.
 */
export const authPlugin = (deps: ContextDeps) =>
  fp(async (app: FastifyInstance) => {
    await app.register(jwt, {
      secret: deps.jwtSecret,
      sign: { algorithm: JWT_ALGORITHM, expiresIn: ACCESS_TOKEN_SECONDS },
      verify: { algorithms: [JWT_ALGORITHM] },
    });
    app.decorateRequest('caller', null);
    const refusedAfterTarget = new WeakSet<FastifyRequest>();
    app.addHook('onRoute', (route) => {
      const gated = route.config?.anyPermission || route.config?.anyPersona;
      if (gated && !route.config?.target && route.url.includes(':')) {
        throw new Error(
          `${route.method} ${route.url}: a route with anyPermission (or anyPersona) and a path target needs config.target`,
        );
      }
    });
    const callers = tenantContextCache(deps.sql);
    app.addHook('onClose', () => callers.close());
    app.addHook('onRequest', async (request) => {
      if (request.is404 || request.routeOptions.config?.public) return;
      const claims = await verifiedClaims(request);
      const userId = Number(claims.sub);
      const caller = Number.isSafeInteger(userId) ? await callers.load(userId) : null;
      if (!caller) throw new ApiError(401, 'SESSION_REVOKED', 'the account or its organization is disabled');
      request.caller = caller;
      const { anyPermission: needed, anyPersona: personas } = request.routeOptions.config ?? {};
      if ((needed && !holds(caller, ...needed)) || (personas && !personas.includes(caller.persona))) {
        if (!request.routeOptions.config.target) throw denied();
        refusedAfterTarget.add(request);
      }
      if (isSuperAdmin(caller)) {
        await recordAuditEvent(deps.store, {
          eventType: 'super_bypass',
          organizationId: null,
          actorUserId: caller.userId,
          occurredAt: deps.clock.now(),
          detail: { method: request.method, route: request.routeOptions.url ?? request.url },
        });
      }
    });
    app.addHook('preValidation', async (request) => {
      if (!refusedAfterTarget.has(request)) return;
      // The target reads the path and query as the handler would, so they are coerced in place now (the body
      // stays unvalidated). A malformed path is left to validation (its 422 names only the path: fastify checks
      // it before the body); a malformed query on a route with a body is refused here, as fastify checks the
      // body before the query.
      const params = request.getValidationFunction('params');
      if (params && !params(request.params as Record<string, unknown>)) return;
      const query = request.getValidationFunction('querystring');
      if (query && !query(request.query as Record<string, unknown>)) {
        if (request.getValidationFunction('body')) throw denied();
        return;
      }
      try {
        await request.routeOptions.config.target?.(request);
      } catch (error) {
        throw refusalAfterTarget(error);
      }
      throw denied();
    });
  });
